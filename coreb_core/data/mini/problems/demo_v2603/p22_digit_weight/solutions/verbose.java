import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /**
     * Sums the digits of value in the given base, walking from the most significant
     * digit down. The largest power is found with a division so it never overflows.
     */
    static long digitSum(long value, long base) {
        long power = 1;
        while (power <= value / base) {
            power *= base;
        }
        long total = 0;
        long remaining = value;
        while (power > 0) {
            long digit = remaining / power;
            total += digit;
            remaining -= digit * power;
            power /= base;
        }
        return total;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokenizer = new StringTokenizer(reader.readLine());
        long value = Long.parseLong(tokenizer.nextToken());
        long base = Long.parseLong(tokenizer.nextToken());
        System.out.println(digitSum(value, base));
    }
}
