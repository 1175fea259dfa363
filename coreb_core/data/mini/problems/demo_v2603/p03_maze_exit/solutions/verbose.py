import sys
from collections import deque

WALL = '#'
MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def read_maze():
    height, width = map(int, sys.stdin.readline().split())
    rows = [sys.stdin.readline().rstrip('\n') for _ in range(height)]
    return height, width, rows


def locate(rows, symbol):
    for row_index, row in enumerate(rows):
        col_index = row.find(symbol)
        if col_index != -1:
            return row_index, col_index
    raise ValueError("symbol not found: " + symbol)


def shortest_walk(height, width, rows):
    """Breadth-first search from the start; returns steps to the exit or -1."""
    start = locate(rows, 'S')
    goal = locate(rows, 'E')
    distance = [[-1] * width for _ in range(height)]
    distance[start[0]][start[1]] = 0
    frontier = deque([start])
    while frontier:
        row, col = frontier.popleft()
        if (row, col) == goal:
            return distance[row][col]
        for d_row, d_col in MOVES:
            next_row, next_col = row + d_row, col + d_col
            if not (0 <= next_row < height and 0 <= next_col < width):
                continue
            if rows[next_row][next_col] == WALL or distance[next_row][next_col] != -1:
                continue
            distance[next_row][next_col] = distance[row][col] + 1
            frontier.append((next_row, next_col))
    return -1


def main():
    height, width, rows = read_maze()
    print(shortest_walk(height, width, rows))


if __name__ == "__main__":
    main()
