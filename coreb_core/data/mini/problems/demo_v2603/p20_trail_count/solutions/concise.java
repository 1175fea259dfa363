import java.util.*;
import java.io.*;
public class Main{public static void main(String[] a)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();int n=(int)s.nval;s.nextToken();int m=(int)s.nval;
int[] h=new int[n+1],nx=new int[m],to=new int[m],d=new int[n+1];Arrays.fill(h,-1);
for(int i=0;i<m;i++){s.nextToken();int u=(int)s.nval;s.nextToken();int v=(int)s.nval;to[i]=v;nx[i]=h[u];h[u]=i;d[v]++;}
long M=1000000007L;long[] f=new long[n+1];f[1]=1;int[] q=new int[n];int qh=0,qt=0;
for(int i=1;i<=n;i++)if(d[i]==0)q[qt++]=i;
while(qh<qt){int u=q[qh++];for(int e=h[u];e>=0;e=nx[e]){int v=to[e];f[v]=(f[v]+f[u])%M;if(--d[v]==0)q[qt++]=v;}}
System.out.println(f[n]);}}
