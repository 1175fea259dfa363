import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] a) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        st.nextToken(); int n = (int) st.nval; st.nextToken(); int m = (int) st.nval;
        List<long[]>[] g = new ArrayList[n + 1];
        for (int i = 0; i <= n; i++) g[i] = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            st.nextToken(); int u = (int) st.nval; st.nextToken(); int v = (int) st.nval; st.nextToken(); long w = (long) st.nval;
            g[u].add(new long[]{v, w}); g[v].add(new long[]{u, w});
        }
        long[] d = new long[n + 1]; Arrays.fill(d, Long.MAX_VALUE); d[1] = 0;
        PriorityQueue<long[]> q = new PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
        q.add(new long[]{0, 1});
        while (!q.isEmpty()) {
            long[] t = q.poll(); int u = (int) t[1];
            if (t[0] > d[u]) continue;
            for (long[] e : g[u]) {
                int v = (int) e[0];
                if (d[v] == Long.MAX_VALUE) { d[v] = t[0] + e[1]; q.add(new long[]{d[v], v}); }
            }
        }
        System.out.println(d[n] == Long.MAX_VALUE ? -1 : d[n]);
    }
}
