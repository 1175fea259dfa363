import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] a) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        st.nextToken(); int n = (int) st.nval;
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            st.nextToken(); long s = (long) st.nval; st.nextToken(); long e = (long) st.nval;
            v[i] = e * 2000000001L + s;
        }
        Arrays.sort(v);
        int c = 0; long t = 0;
        for (long x : v) { long e = x / 2000000001L, s = x % 2000000001L; if (s >= t) { c++; t = e; } }
        System.out.println(c);
    }
}
