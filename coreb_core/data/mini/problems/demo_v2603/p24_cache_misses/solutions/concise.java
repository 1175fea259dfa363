import java.util.*;
import java.io.*;
public class Main{public static void main(String[] a)throws IOException{
StreamTokenizer s=new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
s.nextToken();final int c=(int)s.nval;s.nextToken();int n=(int)s.nval;
LinkedHashMap<Integer,Boolean> m=new LinkedHashMap<Integer,Boolean>(16,0.75f,true){protected boolean removeEldestEntry(Map.Entry<Integer,Boolean> e){return size()>c;}};
long r=0;for(int i=0;i<n;i++){s.nextToken();int x=(int)s.nval;if(m.get(x)==null){r++;m.put(x,true);}}
System.out.println(r);}}
