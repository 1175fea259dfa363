import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] a) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedInputStream(System.in));
        st.nextToken(); int n = (int) st.nval; st.nextToken(); int W = (int) st.nval;
        long[] f = new long[W + 1];
        for (int i = 0; i < n; i++) {
            st.nextToken(); int w = (int) st.nval; st.nextToken(); long v = (long) st.nval;
            for (int c = W; c >= w; c--) f[c] = Math.max(f[c], f[c - w] + v);
        }
        System.out.println(f[W]);
    }
}
