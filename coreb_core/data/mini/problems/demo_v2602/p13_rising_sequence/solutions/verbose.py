import sys


def read_heights():
    """Return the list of seedling heights given on standard input."""
    tokens = sys.stdin.read().split()
    count = int(tokens[0])
    return [int(token) for token in tokens[1:1 + count]]


def first_position_not_below(pile_tops, value):
    """Binary search: smallest index whose top is >= value (len if none)."""
    low, high = 0, len(pile_tops)
    while low < high:
        middle = (low + high) // 2
        if pile_tops[middle] < value:
            low = middle + 1
        else:
            high = middle
    return low


def longest_strictly_rising_length(heights):
    # pile_tops[k] holds the smallest possible last height of a rising
    # chain of length k + 1 seen so far; it stays sorted.
    pile_tops = []
    for height in heights:
        position = first_position_not_below(pile_tops, height)
        if position == len(pile_tops):
            pile_tops.append(height)
        else:
            pile_tops[position] = height
    return len(pile_tops)


def main():
    heights = read_heights()
    print(longest_strictly_rising_length(heights))


if __name__ == "__main__":
    main()
