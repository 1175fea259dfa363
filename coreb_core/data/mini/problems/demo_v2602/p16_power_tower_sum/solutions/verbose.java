import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    private static final long MODULUS = 1_000_000_007L;

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder input = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            input.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(input.toString());
        int queryCount = Integer.parseInt(tokens.nextToken());
        StringBuilder output = new StringBuilder();
        for (int query = 0; query < queryCount; query++) {
            long base = Long.parseLong(tokens.nextToken());
            long topExponent = Long.parseLong(tokens.nextToken());
            output.append(sumOfPowers(base % MODULUS, topExponent)).append('\n');
        }
        System.out.print(output);
    }

    /**
     * Sum of base^0..base^topExponent. Uses 2x2 matrix exponentiation on the state
     * (sum, power): one step maps (s, p) to (s + p, p * base).
     */
    static long sumOfPowers(long base, long topExponent) {
        long[][] step = {{1, 1}, {0, base}};
        long[][] result = matrixPower(step, topExponent + 1);
        // starting state (sum = 0, power = 1): sum after k steps is result[0][1]
        return result[0][1];
    }

    private static long[][] matrixPower(long[][] matrix, long exponent) {
        long[][] result = {{1, 0}, {0, 1}};
        long[][] factor = matrix;
        while (exponent > 0) {
            if ((exponent & 1) == 1) {
                result = multiply(result, factor);
            }
            factor = multiply(factor, factor);
            exponent >>= 1;
        }
        return result;
    }

    private static long[][] multiply(long[][] left, long[][] right) {
        long[][] product = new long[2][2];
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                long cell = 0;
                for (int k = 0; k < 2; k++) {
                    cell = (cell + left[i][k] * right[k][j]) % MODULUS;
                }
                product[i][j] = cell;
            }
        }
        return product;
    }
}
