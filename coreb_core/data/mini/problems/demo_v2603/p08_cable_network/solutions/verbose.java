import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    /** One candidate cable between two stations. */
    private static final class Cable {
        final int from;
        final int to;
        final long cost;

        Cable(int from, int to, long cost) {
            this.from = from;
            this.to = to;
            this.cost = cost;
        }
    }

    /** Union-find with union by size. */
    private static final class UnionFind {
        private final int[] parent;
        private final int[] size;

        UnionFind(int count) {
            parent = new int[count];
            size = new int[count];
            for (int i = 0; i < count; i++) {
                parent[i] = i;
                size[i] = 1;
            }
        }

        int find(int node) {
            int root = node;
            while (parent[root] != root) {
                root = parent[root];
            }
            while (parent[node] != root) {
                int next = parent[node];
                parent[node] = root;
                node = next;
            }
            return root;
        }

        boolean union(int a, int b) {
            int rootA = find(a);
            int rootB = find(b);
            if (rootA == rootB) {
                return false;
            }
            if (size[rootA] < size[rootB]) {
                int swap = rootA;
                rootA = rootB;
                rootB = swap;
            }
            parent[rootB] = rootA;
            size[rootA] += size[rootB];
            return true;
        }
    }

    static long minimumSpanningCost(int stationCount, List<Cable> cables) {
        cables.sort(Comparator.comparingLong(cable -> cable.cost));
        UnionFind unionFind = new UnionFind(stationCount + 1);
        long totalCost = 0;
        int usedCables = 0;
        for (Cable cable : cables) {
            if (unionFind.union(cable.from, cable.to)) {
                totalCost += cable.cost;
                usedCables++;
            }
        }
        // A spanning tree over n stations always uses exactly n - 1 cables.
        return usedCables == stationCount - 1 ? totalCost : -1;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            all.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(all.toString());
        int stationCount = Integer.parseInt(tokens.nextToken());
        int cableCount = Integer.parseInt(tokens.nextToken());
        List<Cable> cables = new ArrayList<>();
        for (int i = 0; i < cableCount; i++) {
            int from = Integer.parseInt(tokens.nextToken());
            int to = Integer.parseInt(tokens.nextToken());
            long cost = Long.parseLong(tokens.nextToken());
            cables.add(new Cable(from, to, cost));
        }
        System.out.println(minimumSpanningCost(stationCount, cables));
    }
}
