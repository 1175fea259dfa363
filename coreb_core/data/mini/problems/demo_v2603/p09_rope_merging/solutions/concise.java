import java.util.*;import java.io.*;
public class Main{public static void main(String[] a)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
t.nextToken();int n=(int)t.nval;PriorityQueue<Long>q=new PriorityQueue<>();
for(int i=0;i<n;i++){t.nextToken();q.add((long)t.nval);}
long s=0;while(q.size()>1){long x=q.poll()+q.poll();s+=x;q.add(x);}
System.out.println(s);}}
