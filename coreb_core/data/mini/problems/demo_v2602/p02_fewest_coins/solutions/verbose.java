import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.Arrays;
import java.util.StringTokenizer;

public class Main {

    private static final int NOT_POSSIBLE = Integer.MAX_VALUE / 2;

    /** Dynamic programming table over every amount from 0 up to the target. */
    static int minimumTokenCount(int target, int[] denominations) {
        int[] fewest = new int[target + 1];
        Arrays.fill(fewest, NOT_POSSIBLE);
        fewest[0] = 0;
        for (int amount = 1; amount <= target; amount++) {
            for (int denomination : denominations) {
                if (denomination <= amount) {
                    int candidate = fewest[amount - denomination] + 1;
                    if (candidate < fewest[amount]) {
                        fewest[amount] = candidate;
                    }
                }
            }
        }
        if (fewest[target] >= NOT_POSSIBLE) {
            return -1;
        }
        return fewest[target];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int denominationCount = Integer.parseInt(header.nextToken());
        int target = Integer.parseInt(header.nextToken());
        int[] denominations = new int[denominationCount];
        StringTokenizer values = new StringTokenizer(reader.readLine());
        for (int i = 0; i < denominationCount; i++) {
            denominations[i] = Integer.parseInt(values.nextToken());
        }
        System.out.println(minimumTokenCount(target, denominations));
    }
}
