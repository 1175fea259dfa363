import java.util.*;
import java.io.*;

public class Main {
    static int[] p;
    static int f(int x) { while (p[x] != x) { p[x] = p[p[x]]; x = p[x]; } return x; }
    public static void main(String[] z) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        in.nextToken(); int n = (int) in.nval; in.nextToken(); int m = (int) in.nval;
        p = new int[n + 1]; for (int i = 0; i <= n; i++) p[i] = i;
        int g = n; StringBuilder sb = new StringBuilder();
        while (m-- > 0) {
            in.nextToken(); int a = f((int) in.nval); in.nextToken(); int b = f((int) in.nval);
            if (a != b) { p[a] = b; g--; }
            sb.append(g).append('\n');
        }
        System.out.print(sb);
    }
}
