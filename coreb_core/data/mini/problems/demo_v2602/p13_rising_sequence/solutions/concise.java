import java.util.*;
import java.io.*;
public class Main{public static void main(String[] a)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedInputStream(System.in));s.nextToken();int n=(int)s.nval;
long[] t=new long[n];int L=0;
for(int i=0;i<n;i++){s.nextToken();long x=(long)s.nval;int lo=0,hi=L;
while(lo<hi){int m=(lo+hi)>>1;if(t[m]<x)lo=m+1;else hi=m;}
t[lo]=x;if(lo==L)L++;}
System.out.println(L);}}
