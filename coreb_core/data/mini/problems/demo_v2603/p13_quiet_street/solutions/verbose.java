import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {
    /** Best total of chosen values when two neighbouring positions may not both be chosen. */
    static long bestTotal(long[] pledges) {
        long withoutPrevious = 0; // best so far if the previous house was skipped
        long overall = 0;         // best so far regardless of the previous house
        for (long amount : pledges) {
            long candidate = withoutPrevious + amount;
            withoutPrevious = overall;
            overall = Math.max(overall, candidate);
        }
        return overall;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            all.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(all.toString());
        int houseCount = Integer.parseInt(tokens.nextToken());
        long[] pledges = new long[houseCount];
        for (int i = 0; i < houseCount; i++) {
            pledges[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(bestTotal(pledges));
    }
}
