import java.util.*;
import java.io.*;

public class Main {
    static long g(long a, long b) { return b == 0 ? a : g(b, a % b); }

    public static void main(String[] z) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        StringTokenizer t = new StringTokenizer(br.readLine());
        long[] a = new long[n]; long d = 0;
        for (int i = 0; i < n; i++) { a[i] = Integer.parseInt(t.nextToken()); d = g(d, a[i]); }
        int c = 0;
        for (long x : a) if (x == d) c++;
        System.out.println(d + " " + c);
    }
}
