import sys


def read_words():
    """The received text and the intended text, one per line."""
    lines = sys.stdin.read().split()
    return lines[0], lines[1]


def edit_distance(source, target):
    """Classic Levenshtein table: cost[i][j] turns source[:i] into target[:j]."""
    rows, cols = len(source), len(target)
    cost = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        cost[i][0] = i  # delete every character
    for j in range(cols + 1):
        cost[0][j] = j  # insert every character
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if source[i - 1] == target[j - 1]:
                cost[i][j] = cost[i - 1][j - 1]
            else:
                cost[i][j] = 1 + min(
                    cost[i - 1][j],      # delete source[i-1]
                    cost[i][j - 1],      # insert target[j-1]
                    cost[i - 1][j - 1],  # overwrite source[i-1]
                )
    return cost[rows][cols]


def main():
    received, intended = read_words()
    print(edit_distance(received, intended))


if __name__ == "__main__":
    main()
