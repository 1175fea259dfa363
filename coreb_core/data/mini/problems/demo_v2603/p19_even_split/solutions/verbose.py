import sys


def read_weights():
    """Read the parcel count followed by the parcel weights."""
    tokens = sys.stdin.read().split()
    count = int(tokens[0])
    return [int(token) for token in tokens[1:1 + count]]


def can_split_evenly(weights):
    """Return True when the weights can be divided into two groups of equal total."""
    total = sum(weights)
    if total % 2 != 0:
        return False
    target = total // 2
    # reachable[s] is True when some subset of the processed weights sums to s
    reachable = [False] * (target + 1)
    reachable[0] = True
    for weight in weights:
        # iterate downwards so each weight is used at most once
        for partial_sum in range(target, weight - 1, -1):
            if reachable[partial_sum - weight]:
                reachable[partial_sum] = True
        if reachable[target]:
            return True
    return reachable[target]


def main():
    weights = read_weights()
    print("YES" if can_split_evenly(weights) else "NO")


if __name__ == "__main__":
    main()
