import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    /** Z-array: z[i] is the length of the longest common prefix of text and text.substring(i). */
    private static int[] computeZArray(String text) {
        int length = text.length();
        int[] z = new int[length];
        z[0] = length;
        int left = 0;
        int right = 0;
        for (int i = 1; i < length; i++) {
            if (i < right) {
                z[i] = Math.min(right - i, z[i - left]);
            }
            while (i + z[i] < length && text.charAt(z[i]) == text.charAt(i + z[i])) {
                z[i]++;
            }
            if (i + z[i] > right) {
                left = i;
                right = i + z[i];
            }
        }
        return z;
    }

    /** A shift p repeats the text exactly when p divides the length and the suffix from p matches the prefix. */
    static int smallestRepeatingUnit(String text) {
        int length = text.length();
        int[] z = computeZArray(text);
        for (int period = 1; period < length; period++) {
            if (length % period == 0 && period + z[period] == length) {
                return period;
            }
        }
        return length;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String pattern = reader.readLine().trim();
        System.out.println(smallestRepeatingUnit(pattern));
    }
}
