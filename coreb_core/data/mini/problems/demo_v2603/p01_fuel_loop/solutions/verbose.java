import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {
    /** Returns the 1-based smallest valid starting station, or -1. */
    static int smallestStart(long[] fuel, long[] cost) {
        long balance = 0;
        long lowestBalance = 0;
        int bestStart = 0;
        // The balance before station k is a prefix sum; the first prefix minimum marks the start.
        for (int station = 0; station < fuel.length; station++) {
            if (balance < lowestBalance) {
                lowestBalance = balance;
                bestStart = station;
            }
            balance += fuel[station] - cost[station];
        }
        return balance < 0 ? -1 : bestStart + 1;
    }

    private static long[] readLongs(StringTokenizer tokens, BufferedReader reader, int count) throws IOException {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            while (!tokens.hasMoreTokens()) {
                tokens = new StringTokenizer(reader.readLine());
            }
            values[i] = Long.parseLong(tokens.nextToken());
        }
        return values;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int stationCount = Integer.parseInt(reader.readLine().trim());
        long[] fuel = readLongs(new StringTokenizer(reader.readLine()), reader, stationCount);
        long[] cost = readLongs(new StringTokenizer(reader.readLine()), reader, stationCount);
        System.out.println(smallestStart(fuel, cost));
    }
}
