import java.util.*;
import java.io.*;
public class Main{public static void main(String[] x)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();int n=(int)s.nval,t=0;int[] a=new int[n];
for(int i=0;i<n;i++){s.nextToken();a[i]=(int)s.nval;t+=a[i];}
boolean ok=false;
if(t%2==0){boolean[] d=new boolean[t/2+1];d[0]=true;
for(int w:a)for(int j=t/2;j>=w;j--)d[j]|=d[j-w];ok=d[t/2];}
System.out.println(ok?"YES":"NO");}}
