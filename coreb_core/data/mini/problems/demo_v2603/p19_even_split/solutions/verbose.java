import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.StringTokenizer;

public class Main {

    /** Reads all whitespace-separated integers from standard input. */
    private static List<Integer> readAllIntegers() throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<Integer> values = new ArrayList<>();
        String line;
        while ((line = reader.readLine()) != null) {
            StringTokenizer tokenizer = new StringTokenizer(line);
            while (tokenizer.hasMoreTokens()) {
                values.add(Integer.parseInt(tokenizer.nextToken()));
            }
        }
        return values;
    }

    /** Returns true when some subset of the weights sums to half of the total. */
    private static boolean canSplitEvenly(List<Integer> weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        if (total % 2 != 0) {
            return false;
        }
        int target = total / 2;
        BitSet reachable = new BitSet(target + 1);
        reachable.set(0);
        for (int weight : weights) {
            // walk sums from high to low so each weight is used once
            for (int sum = target; sum >= weight; sum--) {
                if (reachable.get(sum - weight)) {
                    reachable.set(sum);
                }
            }
        }
        return reachable.get(target);
    }

    public static void main(String[] args) throws IOException {
        List<Integer> numbers = readAllIntegers();
        int parcelCount = numbers.get(0);
        List<Integer> weights = numbers.subList(1, 1 + parcelCount);
        System.out.println(canSplitEvenly(weights) ? "YES" : "NO");
    }
}
