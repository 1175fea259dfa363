import sys
from collections import deque

MODULUS = 1_000_000_007


def read_graph():
    """Return (vertex_count, adjacency lists, in-degrees) read from stdin."""
    first_line = sys.stdin.readline().split()
    vertex_count, edge_count = int(first_line[0]), int(first_line[1])
    successors = [[] for _ in range(vertex_count + 1)]
    in_degree = [0] * (vertex_count + 1)
    for _ in range(edge_count):
        source, target = map(int, sys.stdin.readline().split())
        successors[source].append(target)
        in_degree[target] += 1
    return vertex_count, successors, in_degree


def topological_order(vertex_count, successors, in_degree):
    """Kahn's algorithm: repeatedly remove vertices without incoming edges."""
    remaining = in_degree[:]
    ready = deque(v for v in range(1, vertex_count + 1) if remaining[v] == 0)
    order = []
    while ready:
        vertex = ready.popleft()
        order.append(vertex)
        for neighbour in successors[vertex]:
            remaining[neighbour] -= 1
            if remaining[neighbour] == 0:
                ready.append(neighbour)
    return order


def count_routes(vertex_count, successors, in_degree):
    routes = [0] * (vertex_count + 1)
    routes[1] = 1  # the empty route that starts at vertex 1
    for vertex in topological_order(vertex_count, successors, in_degree):
        if routes[vertex] == 0:
            continue
        for neighbour in successors[vertex]:
            routes[neighbour] = (routes[neighbour] + routes[vertex]) % MODULUS
    return routes[vertex_count]


def main():
    vertex_count, successors, in_degree = read_graph()
    print(count_routes(vertex_count, successors, in_degree))


if __name__ == "__main__":
    main()
