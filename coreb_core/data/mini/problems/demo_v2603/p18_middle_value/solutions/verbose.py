import heapq
import sys


class RunningMedian:
    """Keeps the smaller half in a max-heap and the larger half in a min-heap."""

    def __init__(self):
        self.smaller_half = []  # stored negated, so heap[0] is the largest small value
        self.larger_half = []

    def add(self, weight):
        if not self.smaller_half or weight <= -self.smaller_half[0]:
            heapq.heappush(self.smaller_half, -weight)
        else:
            heapq.heappush(self.larger_half, weight)
        self._rebalance()

    def _rebalance(self):
        # The smaller half may hold exactly one extra element, never fewer.
        if len(self.smaller_half) > len(self.larger_half) + 1:
            heapq.heappush(self.larger_half, -heapq.heappop(self.smaller_half))
        elif len(self.larger_half) > len(self.smaller_half):
            heapq.heappush(self.smaller_half, -heapq.heappop(self.larger_half))

    def lower_median(self):
        return -self.smaller_half[0]


def main():
    tokens = sys.stdin.read().split()
    count = int(tokens[0])
    tracker = RunningMedian()
    lines = []
    for token in tokens[1:1 + count]:
        tracker.add(int(token))
        lines.append(str(tracker.lower_median()))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
