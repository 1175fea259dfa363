import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {

    /**
     * Interval dynamic programming: isPalindrome[i][j] is true when text[i..j] reads the
     * same both ways. Intervals are processed by increasing length.
     */
    static int longestPalindromicSubstring(String text) {
        int length = text.length();
        boolean[][] isPalindrome = new boolean[length][length];
        int best = 1;
        for (int i = 0; i < length; i++) {
            isPalindrome[i][i] = true;
        }
        for (int span = 2; span <= length; span++) {
            for (int start = 0; start + span - 1 < length; start++) {
                int end = start + span - 1;
                boolean endsMatch = text.charAt(start) == text.charAt(end);
                boolean innerOk = span == 2 || isPalindrome[start + 1][end - 1];
                if (endsMatch && innerOk) {
                    isPalindrome[start][end] = true;
                    best = span;
                }
            }
        }
        return best;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String ribbon = reader.readLine().trim();
        System.out.println(longestPalindromicSubstring(ribbon));
    }
}
