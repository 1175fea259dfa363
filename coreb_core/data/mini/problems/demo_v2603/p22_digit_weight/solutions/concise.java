import java.util.*;
public class Main{public static void main(String[] a){Scanner s=new Scanner(System.in);long n=s.nextLong();int b=s.nextInt();
int r=0;for(char c:Long.toString(n,b).toCharArray())r+=Character.digit(c,b);System.out.println(r);}}
