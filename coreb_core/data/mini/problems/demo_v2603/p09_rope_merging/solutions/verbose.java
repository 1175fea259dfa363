import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.PriorityQueue;
import java.util.StringTokenizer;

public class Main {
    /** Greedy: repeatedly join the two shortest ropes, paying their combined length. */
    static long minimumMergeCost(long[] lengths) {
        PriorityQueue<Long> ropes = new PriorityQueue<>();
        for (long length : lengths) {
            ropes.add(length);
        }
        long totalCost = 0;
        while (ropes.size() > 1) {
            long shortest = ropes.poll();
            long secondShortest = ropes.poll();
            long combined = shortest + secondShortest;
            totalCost += combined;
            ropes.add(combined);
        }
        return totalCost;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            text.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(text.toString());
        int ropeCount = Integer.parseInt(tokens.nextToken());
        long[] lengths = new long[ropeCount];
        for (int i = 0; i < ropeCount; i++) {
            lengths[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(minimumMergeCost(lengths));
    }
}
