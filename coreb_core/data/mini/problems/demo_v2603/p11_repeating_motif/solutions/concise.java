import java.io.*;
public class Main{public static void main(String[] a)throws IOException{char[] s=new BufferedReader(new InputStreamReader(System.in)).readLine().trim().toCharArray();
int n=s.length;int[] f=new int[n];
for(int i=1,k=0;i<n;i++){while(k>0&&s[i]!=s[k])k=f[k-1];if(s[i]==s[k])k++;f[i]=k;}
int p=n-f[n-1];System.out.println(n%p==0?p:n);}}
