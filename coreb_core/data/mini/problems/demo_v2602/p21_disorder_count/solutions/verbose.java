import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Sorts values[from, to) and returns how many inversions that range contained. */
    private static long sortAndCount(long[] values, long[] scratch, int from, int to) {
        if (to - from <= 1) {
            return 0;
        }
        int middle = (from + to) >>> 1;
        long inversions = sortAndCount(values, scratch, from, middle) + sortAndCount(values, scratch, middle, to);
        int left = from;
        int right = middle;
        int target = from;
        while (left < middle && right < to) {
            if (values[left] <= values[right]) {
                scratch[target++] = values[left++];
            } else {
                // the whole rest of the left run is larger than values[right]
                inversions += middle - left;
                scratch[target++] = values[right++];
            }
        }
        while (left < middle) {
            scratch[target++] = values[left++];
        }
        while (right < to) {
            scratch[target++] = values[right++];
        }
        System.arraycopy(scratch, from, values, from, to - from);
        return inversions;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int count = Integer.parseInt(reader.readLine().trim());
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        long[] years = new long[count];
        for (int i = 0; i < count; i++) {
            years[i] = Long.parseLong(tokens.nextToken());
        }
        System.out.println(sortAndCount(years, new long[count], 0, count));
    }
}
