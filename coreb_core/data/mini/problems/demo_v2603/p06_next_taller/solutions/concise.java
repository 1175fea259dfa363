import java.io.*;
import java.util.*;
public class Main{public static void main(String[] z)throws IOException{StreamTokenizer in=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
in.nextToken();int n=(int)in.nval;long[] a=new long[n],r=new long[n];int[] s=new int[n];int t=0;
for(int i=0;i<n;i++){in.nextToken();a[i]=(long)in.nval;r[i]=-1;while(t>0&&a[s[t-1]]<a[i])r[s[--t]]=a[i];s[t++]=i;}
StringBuilder sb=new StringBuilder();for(int i=0;i<n;i++)sb.append(r[i]).append(i+1<n?' ':'\n');System.out.print(sb);}}
