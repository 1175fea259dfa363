import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {
    /** Reads whitespace-separated tokens lazily from standard input. */
    private static final class TokenReader {
        private final BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        private StringTokenizer tokens = new StringTokenizer("");

        String next() throws IOException {
            while (!tokens.hasMoreTokens()) {
                tokens = new StringTokenizer(reader.readLine());
            }
            return tokens.nextToken();
        }

        int nextInt() throws IOException {
            return Integer.parseInt(next());
        }

        long nextLong() throws IOException {
            return Long.parseLong(next());
        }
    }

    /** Best total value of a subset whose weights sum to at most capacity. */
    static long bestLoadValue(int[] weights, long[] values, int capacity) {
        long[] bestForLoad = new long[capacity + 1];
        for (int crate = 0; crate < weights.length; crate++) {
            // walk loads downwards so each crate is used at most once
            for (int load = capacity; load >= weights[crate]; load--) {
                long withCrate = bestForLoad[load - weights[crate]] + values[crate];
                if (withCrate > bestForLoad[load]) {
                    bestForLoad[load] = withCrate;
                }
            }
        }
        return bestForLoad[capacity];
    }

    public static void main(String[] args) throws IOException {
        TokenReader in = new TokenReader();
        int crateCount = in.nextInt();
        int capacity = in.nextInt();
        int[] weights = new int[crateCount];
        long[] values = new long[crateCount];
        for (int i = 0; i < crateCount; i++) {
            weights[i] = in.nextInt();
            values[i] = in.nextLong();
        }
        System.out.println(bestLoadValue(weights, values, capacity));
    }
}
