import java.io.*;
import java.util.*;
public class Main{public static void main(String[] z)throws IOException{
BufferedReader r=new BufferedReader(new InputStreamReader(System.in));int n=Integer.parseInt(r.readLine().trim());
StringTokenizer t=new StringTokenizer(r.readLine());long b=Long.MIN_VALUE,c=0;
for(int i=0;i<n;i++){long x=Long.parseLong(t.nextToken());c=Math.max(x,c+x);b=Math.max(b,c);}
System.out.println(b);}}
