import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    /** Number of positive divisors, counted in pairs (d, n / d) with d <= sqrt(n). */
    static long countDivisors(long number) {
        long count = 0;
        for (long divisor = 1; divisor <= number / divisor; divisor++) {
            if (number % divisor != 0) {
                continue;
            }
            long partner = number / divisor;
            count += (partner == divisor) ? 1 : 2;
        }
        return count;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        long number = Long.parseLong(reader.readLine().trim());
        System.out.println(countDivisors(number));
    }
}
