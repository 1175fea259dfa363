import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {

    /** Union-find that also tracks whether each camper is on the same team as its root. */
    static final class ParityUnionFind {
        private final int[] parent;
        private final int[] parityToParent;

        ParityUnionFind(int size) {
            parent = new int[size + 1];
            parityToParent = new int[size + 1];
            for (int i = 0; i <= size; i++) {
                parent[i] = i;
            }
        }

        /** Returns the root of node, compressing the path iteratively and fixing parities. */
        int findRoot(int node) {
            int root = node;
            int totalParity = 0;
            while (parent[root] != root) {
                totalParity ^= parityToParent[root];
                root = parent[root];
            }
            // second pass: point everything on the path straight at the root
            int current = node;
            int parityLeft = totalParity;
            while (parent[current] != current) {
                int next = parent[current];
                int currentParity = parityToParent[current];
                parent[current] = root;
                parityToParent[current] = parityLeft;
                parityLeft ^= currentParity;
                current = next;
            }
            return root;
        }

        int parityToRoot(int node) {
            findRoot(node);
            return node == parent[node] ? 0 : parityToParent[node];
        }

        /** Records that first and second must be on opposite teams; false on contradiction. */
        boolean separate(int first, int second) {
            int firstRoot = findRoot(first);
            int secondRoot = findRoot(second);
            int firstParity = parityToRoot(first);
            int secondParity = parityToRoot(second);
            if (firstRoot == secondRoot) {
                return firstParity != secondParity;
            }
            parent[firstRoot] = secondRoot;
            parityToParent[firstRoot] = firstParity ^ secondParity ^ 1;
            return true;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            text.append(line).append(' ');
        }
        StringTokenizer tokens = new StringTokenizer(text.toString());
        int camperCount = Integer.parseInt(tokens.nextToken());
        int rivalryCount = Integer.parseInt(tokens.nextToken());

        ParityUnionFind teams = new ParityUnionFind(camperCount);
        boolean possible = true;
        for (int i = 0; i < rivalryCount; i++) {
            int first = Integer.parseInt(tokens.nextToken());
            int second = Integer.parseInt(tokens.nextToken());
            if (!teams.separate(first, second)) {
                possible = false;
            }
        }
        System.out.println(possible ? "YES" : "NO");
    }
}
