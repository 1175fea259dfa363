import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Union-find over pupils 1..n that also tracks how many circles exist. */
    static final class CircleRegistry {
        private final int[] parent;
        private final int[] size;
        private int circleCount;

        CircleRegistry(int pupilCount) {
            parent = new int[pupilCount];
            size = new int[pupilCount];
            for (int pupil = 0; pupil < pupilCount; pupil++) {
                parent[pupil] = pupil;
                size[pupil] = 1;
            }
            circleCount = pupilCount;
        }

        int findLeader(int pupil) {
            int leader = pupil;
            while (parent[leader] != leader) {
                leader = parent[leader];
            }
            // compress the path so later lookups are fast
            while (parent[pupil] != leader) {
                int next = parent[pupil];
                parent[pupil] = leader;
                pupil = next;
            }
            return leader;
        }

        void recordFriendship(int first, int second) {
            int firstLeader = findLeader(first);
            int secondLeader = findLeader(second);
            if (firstLeader == secondLeader) {
                return;
            }
            if (size[firstLeader] < size[secondLeader]) {
                int swap = firstLeader;
                firstLeader = secondLeader;
                secondLeader = swap;
            }
            parent[secondLeader] = firstLeader;
            size[firstLeader] += size[secondLeader];
            circleCount--;
        }

        int circleCount() {
            return circleCount;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int pupilCount = Integer.parseInt(header.nextToken());
        int entryCount = Integer.parseInt(header.nextToken());
        CircleRegistry registry = new CircleRegistry(pupilCount);
        StringBuilder output = new StringBuilder();
        for (int entry = 0; entry < entryCount; entry++) {
            StringTokenizer line = new StringTokenizer(reader.readLine());
            int first = Integer.parseInt(line.nextToken());
            int second = Integer.parseInt(line.nextToken());
            registry.recordFriendship(first, second);
            output.append(registry.circleCount()).append('\n');
        }
        System.out.print(output);
    }
}
