import java.util.*;import java.io.*;
public class Main{static final long P=1_000_000_007L;
public static void main(String[] a)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
t.nextToken();int q=(int)t.nval;int[] n=new int[q],k=new int[q];int M=1;
for(int i=0;i<q;i++){t.nextToken();n[i]=(int)t.nval;t.nextToken();k[i]=(int)t.nval;M=Math.max(M,n[i]+1);}
long[] f=new long[M+1],v=new long[M+1],g=new long[M+1];f[0]=g[0]=v[1]=1;
for(int i=1;i<=M;i++){if(i>1)v[i]=(P-P/i*v[(int)(P%i)]%P)%P;f[i]=f[i-1]*i%P;g[i]=g[i-1]*v[i]%P;}
StringBuilder s=new StringBuilder();
for(int i=0;i<q;i++)s.append(k[i]>n[i]?0:f[n[i]]*g[k[i]]%P*g[n[i]-k[i]]%P).append('\n');
System.out.print(s);}}
