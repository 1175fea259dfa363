import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {

    /** Knuth-Morris-Pratt failure table for the pattern. */
    private static int[] buildFailureTable(String pattern) {
        int[] failure = new int[pattern.length()];
        int border = 0;
        for (int i = 1; i < pattern.length(); i++) {
            while (border > 0 && pattern.charAt(i) != pattern.charAt(border)) {
                border = failure[border - 1];
            }
            if (pattern.charAt(i) == pattern.charAt(border)) {
                border++;
            }
            failure[i] = border;
        }
        return failure;
    }

    /** First index where pattern occurs in text, or -1. */
    private static int firstOccurrence(String text, String pattern) {
        int[] failure = buildFailureTable(pattern);
        int matched = 0;
        for (int i = 0; i < text.length(); i++) {
            while (matched > 0 && text.charAt(i) != pattern.charAt(matched)) {
                matched = failure[matched - 1];
            }
            if (text.charAt(i) == pattern.charAt(matched)) {
                matched++;
            }
            if (matched == pattern.length()) {
                return i - pattern.length() + 1;
            }
        }
        return -1;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String word = reader.readLine().trim();
        String target = reader.readLine().trim();
        int shift = -1;
        if (word.length() == target.length()) {
            // every rotation of word appears inside word + word
            shift = firstOccurrence(word + word, target);
        }
        System.out.println(shift < 0 ? "NO" : "YES\n" + shift);
    }
}
