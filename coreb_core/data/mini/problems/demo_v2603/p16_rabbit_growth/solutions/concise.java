import java.util.*;
public class Main{static final long M=1_000_000_007L;
static long[] f(long n){if(n==0)return new long[]{0,1};long[] p=f(n>>1);long a=p[0],b=p[1];long c=a*((2*b-a+M)%M)%M,d=(a*a+b*b)%M;return (n&1)==1?new long[]{d,(c+d)%M}:new long[]{c,d};}
public static void main(String[] x){Scanner s=new Scanner(System.in);System.out.println(f(s.nextLong())[0]);}}
