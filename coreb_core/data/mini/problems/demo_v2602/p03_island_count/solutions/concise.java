import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] z) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer t = new StringTokenizer(br.readLine());
        int r = Integer.parseInt(t.nextToken()), c = Integer.parseInt(t.nextToken()), k = 0;
        char[][] g = new char[r][];
        for (int i = 0; i < r; i++) g[i] = br.readLine().trim().toCharArray();
        int[] q = new int[r * c], dx = {1, -1, 0, 0}, dy = {0, 0, 1, -1};
        for (int i = 0; i < r; i++) for (int j = 0; j < c; j++) if (g[i][j] == '#') {
            k++; g[i][j] = '.'; int h = 0, e = 0; q[e++] = i * c + j;
            while (h < e) {
                int x = q[h] / c, y = q[h++] % c;
                for (int d = 0; d < 4; d++) {
                    int a = x + dx[d], b = y + dy[d];
                    if (a >= 0 && a < r && b >= 0 && b < c && g[a][b] == '#') { g[a][b] = '.'; q[e++] = a * c + b; }
                }
            }
        }
        System.out.println(k);
    }
}
