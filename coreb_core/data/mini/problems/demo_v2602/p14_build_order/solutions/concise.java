import java.util.*;
import java.io.*;
public class Main{public static void main(String[] a)throws IOException{
StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
t.nextToken();int n=(int)t.nval;t.nextToken();int m=(int)t.nval;
int[] hd=new int[n+1],nx=new int[m],to=new int[m],in=new int[n+1];Arrays.fill(hd,-1);
for(int i=0;i<m;i++){t.nextToken();int u=(int)t.nval;t.nextToken();int v=(int)t.nval;to[i]=v;nx[i]=hd[u];hd[u]=i;in[v]++;}
PriorityQueue<Integer>q=new PriorityQueue<>();for(int i=1;i<=n;i++)if(in[i]==0)q.add(i);
StringBuilder b=new StringBuilder();int c=0;
while(!q.isEmpty()){int u=q.poll();b.append(c++>0?" ":"").append(u);for(int e=hd[u];e>=0;e=nx[e])if(--in[to[e]]==0)q.add(to[e]);}
System.out.println(c<n?"IMPOSSIBLE":b.toString());}}
