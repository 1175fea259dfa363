import java.util.*;import java.io.*;
public class Main{static int n;static long[] t;
static void u(int i,long v){for(;i<=n;i+=i&-i)t[i]+=v;}
static long s(int i){long r=0;for(;i>0;i-=i&-i)r+=t[i];return r;}
public static void main(String[] x)throws IOException{BufferedReader b=new BufferedReader(new InputStreamReader(System.in));StringBuilder all=new StringBuilder();String l;
while((l=b.readLine())!=null)all.append(l).append(' ');StringTokenizer z=new StringTokenizer(all.toString());
n=Integer.parseInt(z.nextToken());int q=Integer.parseInt(z.nextToken());t=new long[n+1];long[] a=new long[n+1];
for(int i=1;i<=n;i++){a[i]=Long.parseLong(z.nextToken());u(i,a[i]);}
StringBuilder o=new StringBuilder();
while(q-->0){int c=Integer.parseInt(z.nextToken()),p=Integer.parseInt(z.nextToken());long y=Long.parseLong(z.nextToken());
if(c==1){u(p,y-a[p]);a[p]=y;}else o.append(s((int)y)-s(p-1)).append('\n');}
System.out.print(o);}}
