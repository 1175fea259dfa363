import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] z) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in), 1 << 16));
        st.nextToken(); int n = (int) st.nval; st.nextToken(); int q = (int) st.nval;
        int[] p = new int[n + 1];
        for (int i = 1; i <= n; i++) { st.nextToken(); int x = (int) st.nval; p[i] = p[i - 1] + x; }
        StringBuilder sb = new StringBuilder();
        while (q-- > 0) {
            st.nextToken(); int l = (int) st.nval; st.nextToken(); int r = (int) st.nval;
            sb.append(p[r] - p[l - 1]).append('\n');
        }
        System.out.print(sb);
    }
}
