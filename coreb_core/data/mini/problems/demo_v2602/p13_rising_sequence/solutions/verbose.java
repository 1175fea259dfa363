import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.Arrays;
import java.util.StringTokenizer;

public class Main {

    /** Fenwick tree over ranks that keeps the maximum chain length of each prefix. */
    static final class PrefixMaximum {
        private final int[] tree;

        PrefixMaximum(int size) {
            tree = new int[size + 1];
        }

        void update(int index, int value) {
            for (int i = index; i < tree.length; i += i & -i) {
                tree[i] = Math.max(tree[i], value);
            }
        }

        int query(int index) {
            int best = 0;
            for (int i = index; i > 0; i -= i & -i) {
                best = Math.max(best, tree[i]);
            }
            return best;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer("");
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            all.append(line).append(' ');
        }
        tokens = new StringTokenizer(all.toString());
        int count = Integer.parseInt(tokens.nextToken());
        long[] heights = new long[count];
        for (int i = 0; i < count; i++) {
            heights[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(longestRisingChain(heights));
    }

    static int longestRisingChain(long[] heights) {
        long[] distinct = Arrays.stream(heights).sorted().distinct().toArray();
        PrefixMaximum best = new PrefixMaximum(distinct.length);
        int answer = 0;
        for (long height : heights) {
            // rank is 1-based position of this height among distinct values
            int rank = Arrays.binarySearch(distinct, height) + 1;
            int length = best.query(rank - 1) + 1; // only strictly lower heights may precede
            best.update(rank, length);
            answer = Math.max(answer, length);
        }
        return answer;
    }
}
