import sys
from collections import deque


def read_input():
    tokens = sys.stdin.read().split()
    count, width = int(tokens[0]), int(tokens[1])
    levels = [int(token) for token in tokens[2:2 + count]]
    return width, levels


def window_maxima(levels, width):
    """Return the maximum of every block of `width` consecutive readings.

    The deque stores indices whose readings are strictly decreasing from front
    to back, so the front is always the maximum of the current window.
    """
    candidates = deque()
    maxima = []
    for index, level in enumerate(levels):
        # Readings not above the new one can never be a maximum again.
        while candidates and levels[candidates[-1]] <= level:
            candidates.pop()
        candidates.append(index)
        # Drop the front once it slides out of the window on the left.
        window_start = index - width + 1
        if candidates[0] < window_start:
            candidates.popleft()
        if window_start >= 0:
            maxima.append(levels[candidates[0]])
    return maxima


def main():
    width, levels = read_input()
    print(" ".join(str(value) for value in window_maxima(levels, width)))


if __name__ == "__main__":
    main()
