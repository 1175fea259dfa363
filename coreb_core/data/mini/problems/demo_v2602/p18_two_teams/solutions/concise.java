import java.util.*;
import java.io.*;
public class Main{public static void main(String[] x)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();int n=(int)s.nval;s.nextToken();int m=(int)s.nval;
int[] hd=new int[n+1],nx=new int[2*m],to=new int[2*m],c=new int[n+1],q=new int[n+1];Arrays.fill(hd,-1);Arrays.fill(c,-1);
for(int i=0;i<m;i++){s.nextToken();int a=(int)s.nval;s.nextToken();int b=(int)s.nval;
to[2*i]=b;nx[2*i]=hd[a];hd[a]=2*i;to[2*i+1]=a;nx[2*i+1]=hd[b];hd[b]=2*i+1;}
boolean ok=true;
for(int st=1;st<=n&&ok;st++){if(c[st]>=0)continue;c[st]=0;int h=0,t=0;q[t++]=st;
while(h<t){int u=q[h++];for(int e=hd[u];e>=0;e=nx[e]){int v=to[e];if(c[v]<0){c[v]=c[u]^1;q[t++]=v;}else if(c[v]==c[u])ok=false;}}}
System.out.println(ok?"YES":"NO");}}
