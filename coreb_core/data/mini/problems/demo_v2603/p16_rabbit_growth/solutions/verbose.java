import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    private static final long MODULUS = 1_000_000_007L;

    /** Multiplies two 2x2 matrices modulo MODULUS. */
    private static long[][] multiply(long[][] left, long[][] right) {
        long[][] product = new long[2][2];
        for (int row = 0; row < 2; row++) {
            for (int col = 0; col < 2; col++) {
                long sum = 0;
                for (int mid = 0; mid < 2; mid++) {
                    sum = (sum + left[row][mid] * right[mid][col]) % MODULUS;
                }
                product[row][col] = sum;
            }
        }
        return product;
    }

    /** Raises the matrix to a non-negative power by repeated squaring. */
    private static long[][] power(long[][] base, long exponent) {
        long[][] result = {{1, 0}, {0, 1}};
        while (exponent > 0) {
            if ((exponent & 1L) == 1L) {
                result = multiply(result, base);
            }
            base = multiply(base, base);
            exponent >>= 1;
        }
        return result;
    }

    static long pairsAfterMonths(long month) {
        long[][] step = {{1, 1}, {1, 0}};
        // step^month = [[F(month+1), F(month)], [F(month), F(month-1)]]
        return power(step, month)[0][1];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        long month = Long.parseLong(reader.readLine().trim());
        System.out.println(pairsAfterMonths(month));
    }
}
