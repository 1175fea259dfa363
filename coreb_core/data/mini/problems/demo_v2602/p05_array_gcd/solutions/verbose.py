import sys


def greatest_common_divisor(first, second):
    """Classic Euclidean algorithm."""
    while second:
        first, second = second, first % second
    return first


def common_piece_length(lengths):
    result = 0  # gcd(0, x) == x, so 0 is the neutral starting value
    for length in lengths:
        result = greatest_common_divisor(result, length)
    return result


def main():
    rod_count = int(sys.stdin.readline())
    lengths = list(map(int, sys.stdin.readline().split()))[:rod_count]
    piece = common_piece_length(lengths)
    uncut = sum(1 for length in lengths if length == piece)
    print(piece, uncut)


if __name__ == "__main__":
    main()
