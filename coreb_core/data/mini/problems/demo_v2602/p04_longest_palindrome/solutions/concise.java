import java.util.*;

public class Main {
    public static void main(String[] a) {
        String s = new Scanner(System.in).next();
        int n = s.length(), b = 1;
        for (int c = 0; c < 2 * n - 1; c++) {
            int l = c / 2, r = l + c % 2;
            while (l >= 0 && r < n && s.charAt(l) == s.charAt(r)) { l--; r++; }
            b = Math.max(b, r - l - 1);
        }
        System.out.println(b);
    }
}
