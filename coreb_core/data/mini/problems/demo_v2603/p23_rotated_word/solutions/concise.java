import java.io.*;
public class Main{public static void main(String[] a)throws IOException{
BufferedReader r=new BufferedReader(new InputStreamReader(System.in));String s=r.readLine().trim(),t=r.readLine().trim();int n=s.length();
if(n!=t.length()){System.out.println("NO");return;}
String w=t+"#"+s+s;int[] p=new int[w.length()];
for(int i=1;i<w.length();i++){int j=p[i-1];while(j>0&&w.charAt(i)!=w.charAt(j))j=p[j-1];if(w.charAt(i)==w.charAt(j))j++;p[i]=j;
if(j==n){System.out.println("YES\n"+(i-2*n));return;}}
System.out.println("NO");}}
