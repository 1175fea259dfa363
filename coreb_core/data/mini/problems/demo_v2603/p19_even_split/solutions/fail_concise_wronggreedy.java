import java.util.*;
import java.io.*;
public class Main{public static void main(String[] x)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();int n=(int)s.nval,t=0;int[] a=new int[n];
for(int i=0;i<n;i++){s.nextToken();a[i]=(int)s.nval;t+=a[i];}
boolean ok=false;
if(t%2==0){Arrays.sort(a);int p=0,q=0;
for(int i=n-1;i>=0;i--)if(p<=q)p+=a[i];else q+=a[i];ok=p==q;}
System.out.println(ok?"YES":"NO");}}
