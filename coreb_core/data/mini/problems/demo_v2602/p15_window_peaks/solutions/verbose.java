import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            text.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(text.toString());
        int count = Integer.parseInt(tokens.nextToken());
        int width = Integer.parseInt(tokens.nextToken());
        long[] levels = new long[count];
        for (int i = 0; i < count; i++) {
            levels[i] = Long.parseLong(tokens.nextToken());
        }

        long[] maxima = blockWindowMaxima(levels, width);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < maxima.length; i++) {
            if (i > 0) {
                out.append(' ');
            }
            out.append(maxima[i]);
        }
        System.out.println(out);
    }

    /**
     * Splits the readings into blocks of length width. For each position we know the maximum
     * from the start of its block (prefix) and up to the end of its block (suffix); a window
     * starting at i covers the suffix of one block and the prefix of the next.
     */
    static long[] blockWindowMaxima(long[] levels, int width) {
        int count = levels.length;
        long[] fromBlockStart = new long[count];
        long[] toBlockEnd = new long[count];

        for (int i = 0; i < count; i++) {
            boolean blockStarts = i % width == 0;
            fromBlockStart[i] = blockStarts ? levels[i] : Math.max(fromBlockStart[i - 1], levels[i]);
        }
        for (int i = count - 1; i >= 0; i--) {
            boolean blockEnds = i == count - 1 || (i + 1) % width == 0;
            toBlockEnd[i] = blockEnds ? levels[i] : Math.max(toBlockEnd[i + 1], levels[i]);
        }

        long[] maxima = new long[count - width + 1];
        for (int start = 0; start + width <= count; start++) {
            int end = start + width - 1;
            maxima[start] = Math.max(toBlockEnd[start], fromBlockStart[end]);
        }
        return maxima;
    }
}
