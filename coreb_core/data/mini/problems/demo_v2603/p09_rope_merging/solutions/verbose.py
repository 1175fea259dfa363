import heapq
import sys


def minimum_merge_cost(lengths):
    """Always splice the two shortest ropes; each splice costs the sum of their lengths."""
    pending = list(lengths)
    heapq.heapify(pending)
    total_cost = 0
    while len(pending) > 1:
        shortest = heapq.heappop(pending)
        second_shortest = heapq.heappop(pending)
        combined = shortest + second_shortest
        total_cost += combined
        heapq.heappush(pending, combined)
    return total_cost


def main():
    values = [int(token) for token in sys.stdin.read().split()]
    rope_count = values[0]
    lengths = values[1:1 + rope_count]
    print(minimum_merge_cost(lengths))


if __name__ == "__main__":
    main()
