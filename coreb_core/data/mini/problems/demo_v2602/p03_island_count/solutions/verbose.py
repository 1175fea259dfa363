import sys
from collections import deque

LAND = "#"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def read_chart():
    rows, cols = map(int, sys.stdin.readline().split())
    chart = [sys.stdin.readline().strip() for _ in range(rows)]
    return rows, cols, chart


def explore_island(chart, visited, start_row, start_col):
    """Breadth-first search marking every land square of one island."""
    rows, cols = len(chart), len(chart[0])
    queue = deque([(start_row, start_col)])
    visited[start_row][start_col] = True
    while queue:
        row, col = queue.popleft()
        for d_row, d_col in STEPS:
            next_row, next_col = row + d_row, col + d_col
            if not (0 <= next_row < rows and 0 <= next_col < cols):
                continue
            if chart[next_row][next_col] == LAND and not visited[next_row][next_col]:
                visited[next_row][next_col] = True
                queue.append((next_row, next_col))


def count_islands(rows, cols, chart):
    visited = [[False] * cols for _ in range(rows)]
    islands = 0
    for row in range(rows):
        for col in range(cols):
            if chart[row][col] == LAND and not visited[row][col]:
                islands += 1
                explore_island(chart, visited, row, col)
    return islands


def main():
    rows, cols, chart = read_chart()
    print(count_islands(rows, cols, chart))


if __name__ == "__main__":
    main()
