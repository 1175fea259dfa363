import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    private static final long MODULUS = 1_000_000_007L;

    private final int vertexCount;
    private final List<List<Integer>> successors = new ArrayList<>();
    private final int[] inDegree;

    private Main(int vertexCount) {
        this.vertexCount = vertexCount;
        this.inDegree = new int[vertexCount + 1];
        for (int i = 0; i <= vertexCount; i++) {
            successors.add(new ArrayList<>());
        }
    }

    private void addEdge(int from, int to) {
        successors.get(from).add(to);
        inDegree[to]++;
    }

    /** Processes vertices in topological order and propagates route counts forward. */
    private long countRoutesFromFirstToLast() {
        long[] routes = new long[vertexCount + 1];
        routes[1] = 1;
        int[] remainingIncoming = inDegree.clone();
        Deque<Integer> ready = new ArrayDeque<>();
        for (int vertex = 1; vertex <= vertexCount; vertex++) {
            if (remainingIncoming[vertex] == 0) {
                ready.add(vertex);
            }
        }
        while (!ready.isEmpty()) {
            int vertex = ready.poll();
            for (int next : successors.get(vertex)) {
                routes[next] = (routes[next] + routes[vertex]) % MODULUS;
                remainingIncoming[next]--;
                if (remainingIncoming[next] == 0) {
                    ready.add(next);
                }
            }
        }
        return routes[vertexCount];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int vertexCount = Integer.parseInt(header.nextToken());
        int edgeCount = Integer.parseInt(header.nextToken());
        Main graph = new Main(vertexCount);
        for (int i = 0; i < edgeCount; i++) {
            StringTokenizer edge = new StringTokenizer(reader.readLine());
            graph.addEdge(Integer.parseInt(edge.nextToken()), Integer.parseInt(edge.nextToken()));
        }
        System.out.println(graph.countRoutesFromFirstToLast());
    }
}
