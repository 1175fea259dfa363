import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Reads the day count and the daily profits. */
    private static int[] readProfits(BufferedReader reader) throws IOException {
        int dayCount = Integer.parseInt(reader.readLine().trim());
        int[] profits = new int[dayCount];
        StringTokenizer tokenizer = new StringTokenizer("");
        for (int day = 0; day < dayCount; day++) {
            while (!tokenizer.hasMoreTokens()) {
                tokenizer = new StringTokenizer(reader.readLine());
            }
            profits[day] = Integer.parseInt(tokenizer.nextToken());
        }
        return profits;
    }

    /** Kadane's algorithm over a non-empty array. */
    private static int largestRunTotal(int[] profits) {
        int bestEndingHere = profits[0];
        int bestOverall = profits[0];
        for (int day = 1; day < profits.length; day++) {
            int extended = bestEndingHere + profits[day];
            bestEndingHere = Math.max(profits[day], extended);
            if (bestEndingHere > bestOverall) {
                bestOverall = bestEndingHere;
            }
        }
        return bestOverall;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int[] profits = readProfits(reader);
        System.out.println(largestRunTotal(profits));
    }
}
