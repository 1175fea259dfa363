import sys


def minimum_leaps(leap_limits):
    """Breadth-first search over windows of stones reachable with the same number of leaps."""
    stone_count = len(leap_limits)
    leaps = 0
    window_start, window_end = 0, 0  # stones reachable with exactly `leaps` leaps
    while window_end < stone_count - 1:
        farthest = window_end
        for stone in range(window_start, window_end + 1):
            farthest = max(farthest, stone + leap_limits[stone])
        if farthest == window_end:
            # the next window would be empty: nobody gets further
            return -1
        window_start, window_end = window_end + 1, farthest
        leaps += 1
    return leaps


def main():
    values = sys.stdin.read().split()
    stone_count = int(values[0])
    leap_limits = [int(v) for v in values[1:1 + stone_count]]
    print(minimum_leaps(leap_limits))


main()
