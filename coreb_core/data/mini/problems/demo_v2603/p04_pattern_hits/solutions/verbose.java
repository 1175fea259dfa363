import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    /**
     * Z-array of s: z[i] is the length of the longest common prefix of s and s.substring(i).
     */
    static int[] zFunction(String s) {
        int length = s.length();
        int[] z = new int[length];
        int left = 0;
        int right = 0;
        for (int i = 1; i < length; i++) {
            if (i < right) {
                z[i] = Math.min(right - i, z[i - left]);
            }
            while (i + z[i] < length && s.charAt(z[i]) == s.charAt(i + z[i])) {
                z[i]++;
            }
            if (i + z[i] > right) {
                left = i;
                right = i + z[i];
            }
        }
        return z;
    }

    static long countOccurrences(String text, String pattern) {
        // The separator never occurs in either string, so no match can cross it.
        String combined = pattern + "#" + text;
        int[] z = zFunction(combined);
        long occurrences = 0;
        for (int position = pattern.length() + 1; position < combined.length(); position++) {
            if (z[position] == pattern.length()) {
                occurrences++;
            }
        }
        return occurrences;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String text = reader.readLine().trim();
        String pattern = reader.readLine().trim();
        System.out.println(countOccurrences(text, pattern));
    }
}
