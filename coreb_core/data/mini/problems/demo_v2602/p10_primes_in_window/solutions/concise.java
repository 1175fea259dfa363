import java.util.*;

public class Main {
    public static void main(String[] a) {
        Scanner in = new Scanner(System.in);
        int L = in.nextInt(), R = in.nextInt();
        boolean[] c = new boolean[R + 1];
        int r = 0;
        for (int i = 2; i <= R; i++) {
            if (c[i]) continue;
            if (i >= L) r++;
            for (long j = (long) i * i; j <= R; j += i) c[(int) j] = true;
        }
        System.out.println(r);
    }
}
