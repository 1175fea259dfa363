import sys


def next_strictly_taller(heights):
    """Scan from the east end, keeping a stack of candidate receivers."""
    answer = [-1] * len(heights)
    candidates = []  # heights, strictly decreasing from bottom to top
    for index in range(len(heights) - 1, -1, -1):
        current = heights[index]
        # Anything not taller than the current tower is hidden behind it.
        while candidates and candidates[-1] <= current:
            candidates.pop()
        if candidates:
            answer[index] = candidates[-1]
        candidates.append(current)
    return answer


def main():
    count = int(sys.stdin.readline())
    heights = list(map(int, sys.stdin.readline().split()))[:count]
    print(" ".join(str(value) for value in next_strictly_taller(heights)))


if __name__ == "__main__":
    main()
