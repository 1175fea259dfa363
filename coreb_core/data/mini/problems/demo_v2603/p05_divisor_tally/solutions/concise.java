import java.util.*;
public class Main{public static void main(String[] a){long n=new Scanner(System.in).nextLong();int c=0;for(long i=1;i*i<=n;i++)if(n%i==0)c+=i*i==n?1:2;System.out.println(c);}}
