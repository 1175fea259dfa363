import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] x) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.nextToken(); int n = (int) in.nval;
        long[] a = new long[n];
        for (int i = 0; i < n; i++) { in.nextToken(); a[i] = (long) in.nval; }
        long r = 0, e = 0, m = 0;
        for (int i = 0; i < n - 1; i++) {
            m = Math.max(m, i + a[i]);
            if (i == e) {
                if (m <= i) { System.out.println(-1); return; }
                r++; e = m;
            }
        }
        System.out.println(r);
    }
}
