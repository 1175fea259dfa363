import sys

UNREACHABLE = float("inf")


def parse_input(text):
    """Return (target amount, list of denominations)."""
    numbers = list(map(int, text.split()))
    denomination_count, target = numbers[0], numbers[1]
    denominations = numbers[2:2 + denomination_count]
    return target, denominations


def fewest_tokens(target, denominations):
    # best[amount] = fewest tokens summing to exactly `amount`
    best = [UNREACHABLE] * (target + 1)
    best[0] = 0
    for amount in range(1, target + 1):
        for value in denominations:
            if value <= amount and best[amount - value] + 1 < best[amount]:
                best[amount] = best[amount - value] + 1
    return best[target] if best[target] != UNREACHABLE else -1


def main():
    target, denominations = parse_input(sys.stdin.read())
    print(fewest_tokens(target, denominations))


main()
