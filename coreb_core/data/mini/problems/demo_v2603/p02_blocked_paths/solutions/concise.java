import java.io.*;
import java.util.*;
public class Main{public static void main(String[] a)throws IOException{BufferedReader br=new BufferedReader(new InputStreamReader(System.in));
StringTokenizer st=new StringTokenizer(br.readLine());int h=Integer.parseInt(st.nextToken()),w=Integer.parseInt(st.nextToken());final int M=1000000007;
int[] f=new int[w];f[0]=1;for(int i=0;i<h;i++){String r=br.readLine().trim();for(int j=0;j<w;j++){if(r.charAt(j)=='#')f[j]=0;else if(j>0)f[j]=(f[j]+f[j-1])%M;}}
System.out.println(f[w-1]);}}
