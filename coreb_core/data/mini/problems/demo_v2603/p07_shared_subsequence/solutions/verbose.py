import sys


def longest_common_subsequence(first, second):
    """Classic two-dimensional table: table[i][j] is the answer for the prefixes first[:i], second[:j]."""
    rows, cols = len(first), len(second)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if first[i - 1] == second[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[rows][cols]


def main():
    tokens = sys.stdin.read().split()
    first_copy, second_copy = tokens[0], tokens[1]
    print(longest_common_subsequence(first_copy, second_copy))


if __name__ == "__main__":
    main()
