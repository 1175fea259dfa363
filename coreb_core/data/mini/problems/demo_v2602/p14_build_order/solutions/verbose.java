import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.StringTokenizer;

public class Main {

    private static StringTokenizer tokens;
    private static BufferedReader reader;

    private static int nextInt() throws IOException {
        while (tokens == null || !tokens.hasMoreTokens()) {
            tokens = new StringTokenizer(reader.readLine());
        }
        return Integer.parseInt(tokens.nextToken());
    }

    public static void main(String[] args) throws IOException {
        reader = new BufferedReader(new InputStreamReader(System.in));
        int taskCount = nextInt();
        int ruleCount = nextInt();

        List<List<Integer>> dependents = new ArrayList<>();
        for (int i = 0; i <= taskCount; i++) {
            dependents.add(new ArrayList<>());
        }
        int[] unmetRequirements = new int[taskCount + 1];
        for (int i = 0; i < ruleCount; i++) {
            int before = nextInt();
            int after = nextInt();
            dependents.get(before).add(after);
            unmetRequirements[after]++;
        }

        List<Integer> order = lexicographicallySmallestOrder(taskCount, dependents, unmetRequirements);
        if (order.size() < taskCount) {
            System.out.println("IMPOSSIBLE");
            return;
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < order.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            line.append(order.get(i));
        }
        System.out.println(line);
    }

    /** Kahn's topological sort that always releases the smallest available task number. */
    private static List<Integer> lexicographicallySmallestOrder(int taskCount, List<List<Integer>> dependents,
                                                                int[] unmetRequirements) {
        PriorityQueue<Integer> available = new PriorityQueue<>();
        for (int task = 1; task <= taskCount; task++) {
            if (unmetRequirements[task] == 0) {
                available.add(task);
            }
        }
        List<Integer> order = new ArrayList<>(taskCount);
        while (!available.isEmpty()) {
            int task = available.poll();
            order.add(task);
            for (int dependent : dependents.get(task)) {
                unmetRequirements[dependent]--;
                if (unmetRequirements[dependent] == 0) {
                    available.add(dependent);
                }
            }
        }
        return order;
    }
}
