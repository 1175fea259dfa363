import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] a) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StreamTokenizer st = new StreamTokenizer(br);
        st.nextToken(); int n = (int) st.nval;
        HashMap<String, Integer> m = new HashMap<>(); int b = 0;
        for (int i = 0; i < n; i++) {
            st.nextToken(); char[] c = st.sval.toCharArray(); Arrays.sort(c);
            b = Math.max(b, m.merge(new String(c), 1, Integer::sum));
        }
        System.out.println(m.size() + " " + b);
    }
}
