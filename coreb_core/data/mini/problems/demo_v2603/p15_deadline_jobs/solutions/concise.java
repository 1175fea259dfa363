import java.util.*;import java.io.*;
public class Main{public static void main(String[] x)throws IOException{BufferedReader r=new BufferedReader(new InputStreamReader(System.in));StreamTokenizer s=new StreamTokenizer(r);s.resetSyntax();s.wordChars(33,255);s.whitespaceChars(0,32);
s.nextToken();int n=Integer.parseInt(s.sval);long[][] a=new long[n][2];for(int i=0;i<n;i++){s.nextToken();a[i][0]=Long.parseLong(s.sval);s.nextToken();a[i][1]=Long.parseLong(s.sval);}
Arrays.sort(a,(p,q)->Long.compare(p[1],q[1]));long c=0,b=Long.MIN_VALUE;for(long[] p:a){c+=p[0];b=Math.max(b,c-p[1]);}System.out.println(b);}}
