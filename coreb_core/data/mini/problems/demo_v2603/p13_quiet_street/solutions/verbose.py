import sys


def best_collection(pledges):
    """Return the largest total we can gather without visiting two neighbours."""
    # skip_best: best total up to the previous house when that house was not visited
    # any_best: best total up to the previous house, visited or not
    skip_best = 0
    any_best = 0
    for amount in pledges:
        take_here = skip_best + amount
        skip_best = any_best
        any_best = max(any_best, take_here)
    return any_best


def main():
    tokens = sys.stdin.read().split()
    house_count = int(tokens[0])
    pledges = [int(token) for token in tokens[1:1 + house_count]]
    print(best_collection(pledges))


if __name__ == "__main__":
    main()
