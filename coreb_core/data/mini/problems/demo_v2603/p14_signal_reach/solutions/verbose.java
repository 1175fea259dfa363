import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    private static StringTokenizer tokens = new StringTokenizer("");
    private static BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));

    private static int nextInt() throws IOException {
        while (!tokens.hasMoreTokens()) {
            tokens = new StringTokenizer(reader.readLine());
        }
        return Integer.parseInt(tokens.nextToken());
    }

    /** Counts the nodes whose hop distance from the source is at most maxHops. */
    static int countReachable(List<List<Integer>> links, int source, int maxHops) {
        int nodeCount = links.size() - 1;
        boolean[] visited = new boolean[nodeCount + 1];
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        visited[source] = true;
        queue.add(new int[] {source, 0});
        int reached = 0;
        while (!queue.isEmpty()) {
            int[] entry = queue.poll();
            int node = entry[0];
            int hops = entry[1];
            reached++;
            if (hops == maxHops) {
                continue; // the signal cannot travel further from here
            }
            for (int neighbour : links.get(node)) {
                if (!visited[neighbour]) {
                    visited[neighbour] = true;
                    queue.add(new int[] {neighbour, hops + 1});
                }
            }
        }
        return reached;
    }

    public static void main(String[] args) throws IOException {
        int nodeCount = nextInt();
        int linkCount = nextInt();
        int source = nextInt();
        int maxHops = nextInt();
        List<List<Integer>> links = new ArrayList<>();
        for (int i = 0; i <= nodeCount; i++) {
            links.add(new ArrayList<>());
        }
        for (int i = 0; i < linkCount; i++) {
            int first = nextInt();
            int second = nextInt();
            links.get(first).add(second);
            links.get(second).add(first);
        }
        System.out.println(countReachable(links, source, maxHops));
    }
}
