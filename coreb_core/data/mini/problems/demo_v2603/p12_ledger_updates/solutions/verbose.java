import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.StringTokenizer;

public class Main {
    /** Binary indexed tree with 1-based positions. */
    private static final class FenwickTree {
        private final int size;
        private final long[] tree;

        FenwickTree(int size) {
            this.size = size;
            this.tree = new long[size + 1];
        }

        void add(int position, long delta) {
            for (; position <= size; position += position & -position) {
                tree[position] += delta;
            }
        }

        long prefixSum(int position) {
            long total = 0;
            for (; position > 0; position -= position & -position) {
                total += tree[position];
            }
            return total;
        }

        long rangeSum(int left, int right) {
            return prefixSum(right) - prefixSum(left - 1);
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            text.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(text.toString());
        int accountCount = Integer.parseInt(tokens.nextToken());
        int operationCount = Integer.parseInt(tokens.nextToken());
        long[] balances = new long[accountCount + 1];
        FenwickTree ledger = new FenwickTree(accountCount);
        for (int account = 1; account <= accountCount; account++) {
            balances[account] = Long.parseLong(tokens.nextToken());
            ledger.add(account, balances[account]);
        }
        PrintWriter out = new PrintWriter(System.out);
        for (int step = 0; step < operationCount; step++) {
            int kind = Integer.parseInt(tokens.nextToken());
            int first = Integer.parseInt(tokens.nextToken());
            long second = Long.parseLong(tokens.nextToken());
            if (kind == 1) {
                // Replace the balance by adding the difference to the tree.
                ledger.add(first, second - balances[first]);
                balances[first] = second;
            } else {
                out.println(ledger.rangeSum(first, (int) second));
            }
        }
        out.flush();
    }
}
