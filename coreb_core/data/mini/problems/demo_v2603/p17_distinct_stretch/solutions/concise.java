import java.io.*;
public class Main{public static void main(String[] a)throws IOException{String s=new BufferedReader(new InputStreamReader(System.in)).readLine().trim();int[] L=new int[128];java.util.Arrays.fill(L,-1);int l=0,b=0;
for(int i=0;i<s.length();i++){char c=s.charAt(i);if(L[c]>=l)l=L[c]+1;L[c]=i;b=Math.max(b,i-l+1);}System.out.println(b);}}
