import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] z) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        st.nextToken(); int n = (int) st.nval;
        int[] a = new int[n];
        for (int i = 0; i < n; i++) { st.nextToken(); a[i] = (int) st.nval; }
        int[] s = a.clone(); Arrays.sort(s);
        int m = 0; for (int i = 0; i < n; i++) if (i == 0 || s[i] != s[i - 1]) s[m++] = s[i];
        long[] t = new long[m + 1]; long r = 0;
        for (int i = 0; i < n; i++) {
            int k = Arrays.binarySearch(s, 0, m, a[i]) + 1; long q = 0;
            for (int j = k; j > 0; j -= j & -j) q += t[j];
            r += i - q;
            for (; k <= m; k += k & -k) t[k]++;
        }
        System.out.println(r);
    }
}
