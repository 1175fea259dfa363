import java.io.*;
public class Main{public static void main(String[] a)throws IOException{BufferedReader br=new BufferedReader(new InputStreamReader(System.in));
char[] t=br.readLine().trim().toCharArray(),p=br.readLine().trim().toCharArray();int m=p.length;int[] f=new int[m];
for(int i=1,k=0;i<m;i++){while(k>0&&p[i]!=p[k])k=f[k-1];if(p[i]==p[k])k++;f[i]=k;}
long c=0;for(int i=0,k=0;i<t.length;i++){while(k>0&&t[i]!=p[k])k=f[k-1];if(t[i]==p[k])k++;if(k==m){c++;k=f[k-1];}}
System.out.println(c);}}
