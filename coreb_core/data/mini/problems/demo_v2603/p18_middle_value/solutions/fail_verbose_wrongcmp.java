import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.PriorityQueue;
import java.util.StringTokenizer;

public class Main {
    /** Lower half in a max-heap, upper half in a min-heap; the lower half holds the median. */
    static final class MedianTracker {
        private final PriorityQueue<Long> lowerHalf = new PriorityQueue<>();
        private final PriorityQueue<Long> upperHalf = new PriorityQueue<>();

        void add(long weight) {
            if (lowerHalf.isEmpty() || weight <= lowerHalf.peek()) {
                lowerHalf.add(weight);
            } else {
                upperHalf.add(weight);
            }
            if (lowerHalf.size() > upperHalf.size() + 1) {
                upperHalf.add(lowerHalf.poll());
            } else if (upperHalf.size() > lowerHalf.size()) {
                lowerHalf.add(upperHalf.poll());
            }
        }

        long lowerMedian() {
            return lowerHalf.peek();
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder input = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            input.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(input.toString());
        int count = Integer.parseInt(tokens.nextToken());
        MedianTracker tracker = new MedianTracker();
        PrintWriter out = new PrintWriter(System.out);
        for (int i = 0; i < count; i++) {
            tracker.add(Long.parseLong(tokens.nextToken()));
            out.println(tracker.lowerMedian());
        }
        out.flush();
    }
}
