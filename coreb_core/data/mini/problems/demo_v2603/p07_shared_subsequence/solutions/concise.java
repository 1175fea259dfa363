import java.util.*;
public class Main{public static void main(String[] x){Scanner s=new Scanner(System.in);char[] a=s.next().toCharArray(),b=s.next().toCharArray();
int n=a.length,m=b.length;int[][] f=new int[n+1][m+1];
for(int i=1;i<=n;i++)for(int j=1;j<=m;j++)f[i][j]=a[i-1]==b[j-1]?f[i-1][j-1]+1:Math.max(f[i-1][j],f[i][j-1]);
System.out.println(f[n][m]);}}
