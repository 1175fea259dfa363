import java.util.*;
import java.io.*;
public class Main{static final long M=1_000_000_007L;
static long pw(long b,long e){long r=1;b%=M;while(e>0){if((e&1)==1)r=r*b%M;b=b*b%M;e>>=1;}return r;}
public static void main(String[] x)throws IOException{BufferedReader br=new BufferedReader(new InputStreamReader(System.in));
int t=Integer.parseInt(br.readLine().trim());StringBuilder sb=new StringBuilder();
while(t-->0){StringTokenizer st=new StringTokenizer(br.readLine());long a=Long.parseLong(st.nextToken())%M,n=Long.parseLong(st.nextToken());
sb.append(a==1?(n%M+1)%M:(pw(a,n+1)-1+M)%M*pw((a-1+M)%M,M-2)%M).append('\n');}
System.out.print(sb);}}
