import sys


class DisjointSetUnion:
    """Union-find with union by size and path compression."""

    def __init__(self, size):
        self.parent = list(range(size))
        self.component_size = [1] * size

    def find(self, node):
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:
            self.parent[node], node = root, self.parent[node]
        return root

    def union(self, first, second):
        root_a, root_b = self.find(first), self.find(second)
        if root_a == root_b:
            return False
        if self.component_size[root_a] < self.component_size[root_b]:
            root_a, root_b = root_b, root_a
        self.parent[root_b] = root_a
        self.component_size[root_a] += self.component_size[root_b]
        return True


def minimum_spanning_cost(station_count, cables):
    """Kruskal: take cables from cheapest to most expensive, skipping those that close a cycle."""
    dsu = DisjointSetUnion(station_count + 1)
    total_cost = 0
    used_cables = 0
    for cost, first, second in sorted(cables):
        if dsu.union(first, second):
            total_cost += cost
            used_cables += 1
    if used_cables != station_count - 1:
        return -1
    return total_cost


def main():
    data = sys.stdin.read().split()
    station_count, cable_count = int(data[0]), int(data[1])
    cables = []
    position = 2
    for _ in range(cable_count):
        first, second, cost = int(data[position]), int(data[position + 1]), int(data[position + 2])
        cables.append((cost, first, second))
        position += 3
    print(minimum_spanning_cost(station_count, cables))


if __name__ == "__main__":
    main()
