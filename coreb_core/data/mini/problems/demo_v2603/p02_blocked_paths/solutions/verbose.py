import sys

MODULUS = 1_000_000_007


def read_grid():
    first_line = sys.stdin.readline().split()
    height, width = int(first_line[0]), int(first_line[1])
    rows = [sys.stdin.readline().strip() for _ in range(height)]
    return height, width, rows


def count_routes(height, width, rows):
    ways = [[0] * width for _ in range(height)]
    # Along the first column only straight-down routes exist, until a blocked cell.
    for row in range(height):
        if rows[row][0] == '#':
            break
        ways[row][0] = 1
    # Along the first row only straight-right routes exist, until a blocked cell.
    for col in range(width):
        if rows[0][col] == '#':
            break
        ways[0][col] = 1
    for row in range(1, height):
        for col in range(1, width):
            if rows[row][col] == '#':
                continue
            ways[row][col] = (ways[row - 1][col] + ways[row][col - 1]) % MODULUS
    return ways[height - 1][width - 1]


def main():
    height, width, rows = read_grid()
    print(count_routes(height, width, rows))


main()
