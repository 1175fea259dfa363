import java.util.*;

public class Main {
    public static void main(String[] x) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt(), s = in.nextInt();
        int[] c = new int[n], d = new int[s + 1];
        for (int i = 0; i < n; i++) c[i] = in.nextInt();
        Arrays.fill(d, 1 << 29); d[0] = 0;
        for (int v : c) for (int a = v; a <= s; a++) d[a] = Math.min(d[a], d[a - v] + 1);
        System.out.println(d[s] >= 1 << 29 ? -1 : d[s]);
    }
}
