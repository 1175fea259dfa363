import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.StringTokenizer;

public class Main {
    private static final long UNREACHED = Long.MAX_VALUE;

    /** A road leading to another junction with a toll to pay. */
    private record Road(int destination, long toll) { }

    /** A heap entry: the cheapest known cost to reach a junction. */
    private record Visit(long cost, int junction) implements Comparable<Visit> {
        @Override
        public int compareTo(Visit other) {
            return Long.compare(cost, other.cost);
        }
    }

    static long[] cheapestCosts(List<List<Road>> roads, int source) {
        long[] bestCost = new long[roads.size()];
        Arrays.fill(bestCost, UNREACHED);
        boolean[] settled = new boolean[roads.size()];
        PriorityQueue<Visit> frontier = new PriorityQueue<>();
        bestCost[source] = 0;
        frontier.add(new Visit(0, source));
        while (!frontier.isEmpty()) {
            Visit current = frontier.poll();
            if (settled[current.junction()]) {
                continue;
            }
            settled[current.junction()] = true;
            for (Road road : roads.get(current.junction())) {
                long candidate = current.cost() + road.toll();
                if (candidate < bestCost[road.destination()]) {
                    bestCost[road.destination()] = candidate;
                    frontier.add(new Visit(candidate, road.destination()));
                }
            }
        }
        return bestCost;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int junctionCount = Integer.parseInt(header.nextToken());
        int roadCount = Integer.parseInt(header.nextToken());
        List<List<Road>> roads = new ArrayList<>();
        for (int i = 0; i <= junctionCount; i++) {
            roads.add(new ArrayList<>());
        }
        for (int i = 0; i < roadCount; i++) {
            StringTokenizer line = new StringTokenizer(reader.readLine());
            int from = Integer.parseInt(line.nextToken());
            int to = Integer.parseInt(line.nextToken());
            long toll = Long.parseLong(line.nextToken());
            roads.get(from).add(new Road(to, toll));
            roads.get(to).add(new Road(from, toll));
        }
        long answer = cheapestCosts(roads, 1)[junctionCount];
        System.out.println(answer == UNREACHED ? -1 : answer);
    }
}
