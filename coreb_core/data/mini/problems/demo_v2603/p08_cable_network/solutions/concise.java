import java.util.*;import java.io.*;
public class Main{static int[] p;static int f(int x){while(p[x]!=x){p[x]=p[p[x]];x=p[x];}return x;}
public static void main(String[] a)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
t.nextToken();int n=(int)t.nval;t.nextToken();int m=(int)t.nval;long[][] e=new long[m][3];
for(int i=0;i<m;i++)for(int j=0;j<3;j++){t.nextToken();e[i][j]=(long)t.nval;}
Arrays.sort(e,(x,y)->Long.compare(x[2],y[2]));p=new int[n+1];for(int i=0;i<=n;i++)p[i]=i;
long s=0;int c=0;for(long[] x:e){int u=f((int)x[0]),v=f((int)x[1]);if(u!=v){p[u]=v;s+=x[2];c++;}}
System.out.println(c==n-1?s:-1);}}
