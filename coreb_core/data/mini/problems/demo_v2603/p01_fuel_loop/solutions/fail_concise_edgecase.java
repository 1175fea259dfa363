import java.io.*;
import java.util.*;
public class Main{public static void main(String[] a)throws IOException{StreamTokenizer in=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
in.nextToken();int n=(int)in.nval;long[] g=new long[n];for(int i=0;i<n;i++){in.nextToken();g[i]=(long)in.nval;}
long t=0,s=0;int st=0;for(int i=0;i<n;i++){in.nextToken();long x=g[i]-(long)in.nval;t+=x;s+=x;if(s<0){s=0;st=i+1;}}
System.out.println(st+1);}}
