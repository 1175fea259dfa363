import sys


def longest_unique_run(row):
    """Two pointers: grow the window on the right, shrink from the left on a repeat."""
    in_window = set()
    left = 0
    best = 0
    for right, flower in enumerate(row):
        while flower in in_window:
            in_window.remove(row[left])
            left += 1
        in_window.add(flower)
        best = max(best, right - left + 1)
    return best


def main():
    row = sys.stdin.readline().strip()
    print(longest_unique_run(row))


if __name__ == "__main__":
    main()
