import java.util.*;import java.io.*;
public class Main{public static void main(String[] z)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));t.resetSyntax();t.wordChars(33,255);t.whitespaceChars(0,32);
t.nextToken();int n=Integer.parseInt(t.sval);PriorityQueue<Long>a=new PriorityQueue<>(Collections.reverseOrder()),b=new PriorityQueue<>();StringBuilder o=new StringBuilder();
for(int i=0;i<n;i++){t.nextToken();long x=Long.parseLong(t.sval);a.add(x);b.add(a.poll());if(b.size()>a.size())a.add(b.poll());o.append(a.peek()).append('\n');}System.out.print(o);}}
