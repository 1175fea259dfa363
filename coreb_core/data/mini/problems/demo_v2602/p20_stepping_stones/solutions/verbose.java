import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Breadth-first layers: every layer is the window of stones reachable with one more leap. */
    static int fewestLeaps(long[] leapLimits) {
        int stoneCount = leapLimits.length;
        int leaps = 0;
        int windowStart = 0;
        long windowEnd = 0;
        while (windowEnd < stoneCount - 1) {
            long farthest = windowEnd;
            for (int stone = windowStart; stone <= windowEnd; stone++) {
                farthest = Math.max(farthest, stone + leapLimits[stone]);
            }
            if (farthest == windowEnd) {
                return -1; // the courier cannot get past this window
            }
            windowStart = (int) windowEnd + 1;
            windowEnd = farthest;
            leaps++;
        }
        return leaps;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int stoneCount = Integer.parseInt(reader.readLine().trim());
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        long[] leapLimits = new long[stoneCount];
        for (int i = 0; i < stoneCount; i++) {
            leapLimits[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(fewestLeaps(leapLimits));
    }
}
