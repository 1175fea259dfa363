import java.util.*;
import java.io.*;
public class Main{public static void main(String[] x)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();int n=(int)s.nval;s.nextToken();int k=(int)s.nval;long[] a=new long[n];
for(int i=0;i<n;i++){s.nextToken();a[i]=(long)s.nval;}
int[] q=new int[n];int h=0,t=0;StringBuilder b=new StringBuilder();
for(int i=0;i<n;i++){while(t>h&&a[q[t-1]]<=a[i])t--;q[t++]=i;if(q[h]<=i-k)h++;
if(i>=k-1)b.append(i>=k?" ":"").append(a[q[h]]);}
System.out.println(b);}}
