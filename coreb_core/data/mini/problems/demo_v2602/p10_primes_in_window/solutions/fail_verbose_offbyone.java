import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.BitSet;
import java.util.StringTokenizer;

public class Main {
    /** Returns a bit set whose bit k is set exactly when k is composite or k < 2. */
    static BitSet crossOutComposites(int limit) {
        BitSet notPrime = new BitSet(limit + 1);
        notPrime.set(0);
        notPrime.set(1);
        for (int factor = 2; (long) factor * factor <= limit; factor++) {
            if (notPrime.get(factor)) {
                continue;
            }
            for (int multiple = factor * factor; multiple <= limit; multiple += factor) {
                notPrime.set(multiple);
            }
        }
        return notPrime;
    }

    static int countPrimesBetween(int low, int high) {
        BitSet notPrime = crossOutComposites(high);
        int count = 0;
        for (int value = low; value < high; value++) {
            if (!notPrime.get(value)) {
                count++;
            }
        }
        return count;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        int low = Integer.parseInt(tokens.nextToken());
        int high = Integer.parseInt(tokens.nextToken());
        System.out.println(countPrimesBetween(low, high));
    }
}
