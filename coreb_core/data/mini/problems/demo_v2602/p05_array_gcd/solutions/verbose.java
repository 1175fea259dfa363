import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

public class Main {

    /** Reads the rod lengths; BigInteger keeps us safe from any overflow concerns. */
    private static List<BigInteger> readLengths(BufferedReader reader) throws IOException {
        int count = Integer.parseInt(reader.readLine().trim());
        List<BigInteger> lengths = new ArrayList<>(count);
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        for (int i = 0; i < count; i++) {
            lengths.add(new BigInteger(tokens.nextToken()));
        }
        return lengths;
    }

    private static BigInteger gcdOfAll(List<BigInteger> lengths) {
        BigInteger common = BigInteger.ZERO;
        for (BigInteger length : lengths) {
            common = common.gcd(length);
        }
        return common;
    }

    private static int countEqualTo(List<BigInteger> lengths, BigInteger target) {
        int matches = 0;
        for (BigInteger length : lengths) {
            if (length.equals(target)) {
                matches++;
            }
        }
        return matches;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<BigInteger> lengths = readLengths(reader);
        BigInteger pieceLength = gcdOfAll(lengths);
        System.out.println(pieceLength + " " + countEqualTo(lengths, pieceLength));
    }
}
