import java.util.*;import java.io.*;
public class Main{public static void main(String[] a)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
t.nextToken();int n=(int)t.nval;t.nextToken();int m=(int)t.nval;t.nextToken();int s=(int)t.nval;t.nextToken();int k=(int)t.nval;
int[] h=new int[n+1],nx=new int[2*m],to=new int[2*m];Arrays.fill(h,-1);int e=0;
for(int i=0;i<m;i++){t.nextToken();int u=(int)t.nval;t.nextToken();int v=(int)t.nval;to[e]=v;nx[e]=h[u];h[u]=e++;to[e]=u;nx[e]=h[v];h[v]=e++;}
int[] D=new int[n+1];Arrays.fill(D,-1);int[] q=new int[n];int l=0,r=0;q[r++]=s;D[s]=0;int c=0;
while(l<r){int u=q[l++];if(D[u]>k)break;c++;for(int j=h[u];j>=0;j=nx[j]){int v=to[j];if(D[v]<0){D[v]=D[u]+1;q[r++]=v;}}}
System.out.println(c);}}
