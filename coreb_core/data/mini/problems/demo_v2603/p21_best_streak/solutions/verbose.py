import sys


def read_profits():
    """Read n followed by the n daily values."""
    data = sys.stdin.read().split()
    day_count = int(data[0])
    return [int(value) for value in data[1:1 + day_count]]


def largest_run_total(profits):
    """Largest sum of a non-empty run of consecutive values, via prefix sums.

    For every end position the best start is the one with the smallest
    prefix sum before it, so we track that minimum while scanning.
    """
    best_total = None
    prefix_sum = 0
    smallest_prefix_before = 0  # prefix sum of the empty prefix
    for profit in profits:
        prefix_sum += profit
        candidate = prefix_sum - smallest_prefix_before
        if best_total is None or candidate > best_total:
            best_total = candidate
        smallest_prefix_before = min(smallest_prefix_before, prefix_sum)
    return best_total


def main():
    profits = read_profits()
    print(largest_run_total(profits))


if __name__ == "__main__":
    main()
