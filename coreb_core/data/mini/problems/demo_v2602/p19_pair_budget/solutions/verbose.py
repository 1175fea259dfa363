import sys
from collections import Counter


def count_pairs_with_sum(prices, target):
    """Count unordered index pairs whose values add up to target."""
    frequency = Counter(prices)
    total_pairs = 0
    for value, occurrences in frequency.items():
        complement = target - value
        if value < complement:
            # each occurrence of value pairs with each occurrence of its complement
            total_pairs += occurrences * frequency.get(complement, 0)
        elif value == complement:
            # choose two distinct positions among equal values
            total_pairs += occurrences * (occurrences - 1) // 2
    return total_pairs


def main():
    tokens = sys.stdin.read().split()
    item_count, target_sum = int(tokens[0]), int(tokens[1])
    prices = [int(token) for token in tokens[2:2 + item_count]]
    print(count_pairs_with_sum(prices, target_sum))


if __name__ == "__main__":
    main()
