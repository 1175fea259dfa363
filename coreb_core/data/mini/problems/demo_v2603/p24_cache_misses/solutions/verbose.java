import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.StringTokenizer;

public class Main {

    /** Keeps at most {@code capacity} keys and evicts the least recently used one. */
    static final class RecentlyUsedShelf {
        private final int capacity;
        // access-ordered: iteration starts at the least recently used key
        private final LinkedHashMap<Integer, Integer> keys = new LinkedHashMap<>(16, 0.75f, true);

        RecentlyUsedShelf(int capacity) {
            this.capacity = capacity;
        }

        /** Returns true when the key had to be fetched. */
        boolean request(int key) {
            if (keys.get(key) != null) {
                return false;
            }
            if (capacity == 0) {
                return true;  // nothing can be kept
            }
            if (keys.size() == capacity) {
                Iterator<Integer> oldest = keys.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
            keys.put(key, key);
            return true;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int capacity = Integer.parseInt(header.nextToken());
        int requestCount = Integer.parseInt(header.nextToken());
        RecentlyUsedShelf shelf = new RecentlyUsedShelf(capacity);
        StringTokenizer tokens = new StringTokenizer("");
        long trips = 0;
        for (int i = 0; i < requestCount; i++) {
            while (!tokens.hasMoreTokens()) {
                tokens = new StringTokenizer(reader.readLine());
            }
            if (shelf.request(Integer.parseInt(tokens.nextToken()))) {
                trips++;
            }
        }
        System.out.println(trips);
    }
}
