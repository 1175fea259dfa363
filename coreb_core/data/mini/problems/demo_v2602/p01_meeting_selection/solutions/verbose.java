import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringTokenizer;

public class Main {

    /** A requested time slot, half-open: [start, end). */
    private static final class Slot {
        final int start;
        final int end;

        Slot(int start, int end) {
            this.start = start;
            this.end = end;
        }
    }

    private static List<Slot> readSlots(BufferedReader reader) throws IOException {
        int count = Integer.parseInt(reader.readLine().trim());
        List<Slot> slots = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringTokenizer tokens = new StringTokenizer(reader.readLine());
            int start = Integer.parseInt(tokens.nextToken());
            int end = Integer.parseInt(tokens.nextToken());
            slots.add(new Slot(start, end));
        }
        return slots;
    }

    /** Picks slots in order of their end time whenever they do not clash with the last pick. */
    private static int maximumNonOverlapping(List<Slot> slots) {
        slots.sort(Comparator.comparingInt(slot -> slot.end));
        int chosen = 0;
        int lastEnd = Integer.MIN_VALUE;
        for (Slot slot : slots) {
            if (slot.start >= lastEnd) {
                chosen++;
                lastEnd = slot.end;
            }
        }
        return chosen;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<Slot> slots = readSlots(reader);
        System.out.println(maximumNonOverlapping(slots));
    }
}
