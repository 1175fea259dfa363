import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Binary indexed tree over 1-based positions, storing 64-bit partial sums. */
    private static final class FenwickTree {
        private final long[] tree;

        FenwickTree(int size) {
            tree = new long[size + 1];
        }

        void add(int position, long delta) {
            for (int i = position; i < tree.length; i += i & -i) {
                tree[i] += delta;
            }
        }

        long prefixSum(int position) {
            long total = 0;
            for (int i = position; i > 0; i -= i & -i) {
                total += tree[i];
            }
            return total;
        }

        long rangeSum(int from, int to) {
            return prefixSum(to) - prefixSum(from - 1);
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int readingCount = Integer.parseInt(header.nextToken());
        int questionCount = Integer.parseInt(header.nextToken());

        FenwickTree ledger = new FenwickTree(readingCount);
        StringTokenizer values = new StringTokenizer(reader.readLine());
        for (int hour = 1; hour <= readingCount; hour++) {
            ledger.add(hour, Long.parseLong(values.nextToken()));
        }

        StringBuilder output = new StringBuilder();
        for (int question = 0; question < questionCount; question++) {
            StringTokenizer bounds = new StringTokenizer(reader.readLine());
            int firstHour = Integer.parseInt(bounds.nextToken());
            int lastHour = Integer.parseInt(bounds.nextToken());
            output.append(ledger.rangeSum(firstHour, lastHour)).append('\n');
        }
        System.out.print(output);
    }
}
