import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.HashMap;
import java.util.Map;
import java.util.StringTokenizer;

public class Main {

    /** Reads all whitespace-separated tokens from standard input. */
    private static StringTokenizer readAllTokens() throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder content = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            content.append(line).append(' ');
        }
        return new StringTokenizer(content.toString());
    }

    /** Counts how often every price appears. */
    private static Map<Long, Long> countOccurrences(long[] prices) {
        Map<Long, Long> occurrences = new HashMap<>();
        for (long price : prices) {
            occurrences.put(price, occurrences.getOrDefault(price, 0L) + 1);
        }
        return occurrences;
    }

    /** Number of position pairs i < j whose prices add up to the target. */
    private static long countPairsWithSum(long[] prices, long targetSum) {
        Map<Long, Long> occurrences = countOccurrences(prices);
        long pairCount = 0;
        for (Map.Entry<Long, Long> entry : occurrences.entrySet()) {
            long value = entry.getKey();
            long times = entry.getValue();
            long complement = targetSum - value;
            if (value < complement) {
                pairCount += times * occurrences.getOrDefault(complement, 0L);
            } else if (value == complement) {
                // pairs formed inside a group of equal prices
                pairCount += times * (times - 1) / 2;
            }
        }
        return pairCount;
    }

    public static void main(String[] args) throws IOException {
        StringTokenizer tokens = readAllTokens();
        int itemCount = Integer.parseInt(tokens.nextToken());
        long targetSum = Long.parseLong(tokens.nextToken());
        long[] prices = new long[itemCount];
        for (int i = 0; i < itemCount; i++) {
            prices[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(countPairsWithSum(prices, targetSum));
    }
}
