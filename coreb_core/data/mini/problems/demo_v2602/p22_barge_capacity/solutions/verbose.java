import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Greedily loads packages in order and reports how many days that takes. */
    static int countDays(int[] weights, long capacity) {
        int days = 1;
        long loadToday = 0;
        for (int weight : weights) {
            if (loadToday + weight > capacity) {
                days++;
                loadToday = 0;
            }
            loadToday += weight;
        }
        return days;
    }

    static long smallestCapacity(int[] weights, int dayLimit) {
        long low = 0;
        long high = 0;
        for (int weight : weights) {
            low = Math.max(low, weight);
            high += weight;
        }
        // invariant: high is always feasible, everything below low is not
        while (low < high) {
            long middle = low + (high - low) / 2;
            if (countDays(weights, middle) <= dayLimit) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int packageCount = Integer.parseInt(header.nextToken());
        int dayLimit = Integer.parseInt(header.nextToken());
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        int[] weights = new int[packageCount];
        for (int i = 0; i < packageCount; i++) {
            weights[i] = Integer.parseInt(tokens.nextToken());
        }
        System.out.println(smallestCapacity(weights, dayLimit));
    }
}
