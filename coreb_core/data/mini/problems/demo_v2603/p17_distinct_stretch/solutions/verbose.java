import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.HashMap;
import java.util.Map;

public class Main {
    /**
     * Scans the row once, remembering where each flower was last seen.
     * The window start jumps past the previous copy of a repeated flower.
     */
    static int longestStretch(String row) {
        Map<Character, Integer> lastSeen = new HashMap<>();
        int windowStart = 0;
        int best = 0;
        for (int position = 0; position < row.length(); position++) {
            char flower = row.charAt(position);
            Integer previous = lastSeen.get(flower);
            if (previous != null && previous >= windowStart) {
                best = Math.max(best, position - windowStart);
                windowStart = previous + 1;
            }
            lastSeen.put(flower, position);
        }
        // The window that reaches the end of the row has not been measured yet.
        best = Math.max(best, row.length() - windowStart);
        return best;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String row = reader.readLine().trim();
        System.out.println(longestStretch(row));
    }
}
