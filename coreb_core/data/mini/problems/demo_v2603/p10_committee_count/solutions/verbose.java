import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.StringTokenizer;

public class Main {
    private static final long MODULUS = 1_000_000_007L;

    private static long[] factorial;
    private static long[] inverseFactorial;

    /** Modular exponentiation by repeated squaring. */
    private static long powerMod(long base, long exponent) {
        long result = 1;
        base %= MODULUS;
        while (exponent > 0) {
            if ((exponent & 1) == 1) {
                result = result * base % MODULUS;
            }
            base = base * base % MODULUS;
            exponent >>= 1;
        }
        return result;
    }

    private static void precompute(int limit) {
        factorial = new long[limit + 1];
        inverseFactorial = new long[limit + 1];
        factorial[0] = 1;
        for (int i = 1; i <= limit; i++) {
            factorial[i] = factorial[i - 1] * i % MODULUS;
        }
        inverseFactorial[limit] = powerMod(factorial[limit], MODULUS - 2);
        for (int i = limit; i > 0; i--) {
            inverseFactorial[i - 1] = inverseFactorial[i] * i % MODULUS;
        }
    }

    private static long choose(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        return factorial[n] * inverseFactorial[k] % MODULUS * inverseFactorial[n - k] % MODULUS;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer("");
        StringBuilder input = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            input.append(line).append(' ');
        }
        tokens = new StringTokenizer(input.toString());
        int queryCount = Integer.parseInt(tokens.nextToken());
        int[] sizes = new int[queryCount];
        int[] picks = new int[queryCount];
        int largestSize = 0;
        for (int i = 0; i < queryCount; i++) {
            sizes[i] = Integer.parseInt(tokens.nextToken());
            picks[i] = Integer.parseInt(tokens.nextToken());
            largestSize = Math.max(largestSize, sizes[i]);
        }
        precompute(largestSize);
        PrintWriter out = new PrintWriter(System.out);
        for (int i = 0; i < queryCount; i++) {
            out.println(choose(sizes[i], picks[i]));
        }
        out.flush();
    }
}
