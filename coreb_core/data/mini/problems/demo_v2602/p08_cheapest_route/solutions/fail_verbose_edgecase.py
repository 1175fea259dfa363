import heapq
import sys

UNREACHED = float("inf")


def read_network():
    """Return the junction count and an adjacency list of (neighbour, toll) pairs."""
    first_line = sys.stdin.readline().split()
    junction_count, road_count = int(first_line[0]), int(first_line[1])
    neighbours = [[] for _ in range(junction_count + 1)]
    for _ in range(road_count):
        start, end, toll = map(int, sys.stdin.readline().split())
        neighbours[start].append((end, toll))
        neighbours[end].append((start, toll))
    return junction_count, neighbours


def cheapest_costs(neighbours, source):
    """Dijkstra's algorithm with lazy deletion of outdated heap entries."""
    best_cost = [UNREACHED] * len(neighbours)
    best_cost[source] = 0
    frontier = [(0, source)]
    while frontier:
        cost_so_far, junction = heapq.heappop(frontier)
        if cost_so_far != best_cost[junction]:
            continue  # an older, more expensive entry
        for next_junction, toll in neighbours[junction]:
            candidate = cost_so_far + toll
            if candidate < best_cost[next_junction]:
                best_cost[next_junction] = candidate
                heapq.heappush(frontier, (candidate, next_junction))
    return best_cost


def main():
    junction_count, neighbours = read_network()
    costs = cheapest_costs(neighbours, 1)
    target_cost = costs[junction_count]
    print(target_cost)


if __name__ == "__main__":
    main()
