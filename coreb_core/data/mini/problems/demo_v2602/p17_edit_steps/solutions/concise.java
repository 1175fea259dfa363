import java.util.*;
import java.io.*;
public class Main{public static void main(String[] x)throws IOException{
BufferedReader b=new BufferedReader(new InputStreamReader(System.in));StringTokenizer st=new StringTokenizer(b.readLine()+" "+b.readLine());
char[] s=st.nextToken().toCharArray(),t=st.nextToken().toCharArray();int n=s.length,m=t.length;int[][] d=new int[n+1][m+1];
for(int i=0;i<=n;i++)for(int j=0;j<=m;j++)d[i][j]=i==0?j:j==0?i:Math.min(Math.min(d[i-1][j],d[i][j-1])+1,d[i-1][j-1]+(s[i-1]==t[j-1]?0:1));
System.out.println(d[n][m]);}}
