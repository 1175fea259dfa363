import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    /** A moment on the timeline where an interval opens (+1) or closes (-1). */
    private static final class Event implements Comparable<Event> {
        final long time;
        final int delta;

        Event(long time, int delta) {
            this.time = time;
            this.delta = delta;
        }

        @Override
        public int compareTo(Event other) {
            if (time != other.time) {
                return (int) (time - other.time);
            }
            // openings first, so intervals that only touch still overlap
            return Integer.compare(other.delta, delta);
        }
    }

    static int peakOverlap(List<Event> events) {
        Collections.sort(events);
        int active = 0;
        int mostActive = 0;
        for (Event event : events) {
            active += event.delta;
            mostActive = Math.max(mostActive, active);
        }
        return mostActive;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int intervalCount = Integer.parseInt(reader.readLine().trim());
        List<Event> events = new ArrayList<>(2 * intervalCount);
        for (int i = 0; i < intervalCount; i++) {
            StringTokenizer tokens = new StringTokenizer(reader.readLine());
            long start = Long.parseLong(tokens.nextToken());
            long end = Long.parseLong(tokens.nextToken());
            events.add(new Event(start, +1));
            events.add(new Event(end, -1));
        }
        System.out.println(peakOverlap(events));
    }
}
