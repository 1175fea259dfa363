import sys
from collections import deque


def read_network():
    data = sys.stdin.read().split()
    node_count, link_count = int(data[0]), int(data[1])
    source, max_hops = int(data[2]), int(data[3])
    neighbours = [[] for _ in range(node_count + 1)]
    position = 4
    for _ in range(link_count):
        first, second = int(data[position]), int(data[position + 1])
        position += 2
        neighbours[first].append(second)
        neighbours[second].append(first)
    return neighbours, source, max_hops


def count_within_hops(neighbours, source, max_hops):
    """Breadth-first search that never expands a node already at the hop limit."""
    hops = {source: 0}
    frontier = deque([source])
    while frontier:
        current = frontier.popleft()
        if hops[current] == max_hops:
            continue
        for nxt in neighbours[current]:
            if nxt not in hops:
                hops[nxt] = hops[current] + 1
                frontier.append(nxt)
    return len(hops)


def main():
    neighbours, source, max_hops = read_network()
    print(count_within_hops(neighbours, source, max_hops))


main()
