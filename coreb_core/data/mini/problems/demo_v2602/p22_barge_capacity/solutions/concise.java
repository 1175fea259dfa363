import java.util.*;
import java.io.*;

public class Main {
    static long[] w; static int D;
    static boolean ok(long c) {
        int d = 1; long s = 0;
        for (long x : w) { if (s + x > c) { d++; s = 0; } s += x; }
        return d <= D;
    }
    public static void main(String[] z) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer(br.readLine());
        int n = Integer.parseInt(st.nextToken()); D = Integer.parseInt(st.nextToken());
        w = new long[n]; st = new StringTokenizer(br.readLine());
        long lo = 0, hi = 0;
        for (int i = 0; i < n; i++) { w[i] = Long.parseLong(st.nextToken()); lo = Math.max(lo, w[i]); hi += w[i]; }
        while (lo < hi) { long m = (lo + hi) / 2; if (ok(m)) hi = m; else lo = m + 1; }
        System.out.println(lo);
    }
}
