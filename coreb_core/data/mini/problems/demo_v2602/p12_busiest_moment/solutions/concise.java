import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] a) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        long[] s = new long[n], e = new long[n];
        for (int i = 0; i < n; i++) {
            StringTokenizer t = new StringTokenizer(br.readLine());
            s[i] = Long.parseLong(t.nextToken()); e[i] = Long.parseLong(t.nextToken());
        }
        Arrays.sort(s); Arrays.sort(e);
        int b = 0, j = 0;
        for (int i = 0; i < n; i++) { while (e[j] < s[i]) j++; b = Math.max(b, i - j + 1); }
        System.out.println(b);
    }
}
