import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    static final class Order {
        final long duration;
        final long promisedTime;

        Order(long duration, long promisedTime) {
            this.duration = duration;
            this.promisedTime = promisedTime;
        }
    }

    /** Earliest promise first; returns the largest finishing delay of that schedule. */
    static long worstDelayOfBestSchedule(List<Order> orders) {
        orders.sort(Comparator.comparingLong(order -> order.promisedTime));
        long clock = 0;
        long worst = Long.MIN_VALUE;
        for (Order order : orders) {
            clock += order.duration;
            long delay = clock - order.promisedTime;
            if (delay > worst) {
                worst = delay;
            }
        }
        return worst;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        int orderCount = Integer.parseInt(tokens.nextToken());
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < orderCount; i++) {
            tokens = new StringTokenizer(reader.readLine());
            long duration = Long.parseLong(tokens.nextToken());
            long promisedTime = Long.parseLong(tokens.nextToken());
            orders.add(new Order(duration, promisedTime));
        }
        System.out.println(worstDelayOfBestSchedule(orders));
    }
}
