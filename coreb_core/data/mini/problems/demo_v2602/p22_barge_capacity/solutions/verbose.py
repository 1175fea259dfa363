import sys


def days_needed(weights, capacity):
    """Number of daily trips when each day takes as many packages as fit, in order."""
    days = 1
    current_load = 0
    for weight in weights:
        if current_load + weight > capacity:
            days += 1
            current_load = 0
        current_load += weight
    return days


def smallest_capacity(weights, day_limit):
    # the barge must hold the heaviest package, and the full load always suffices
    low = max(weights)
    high = sum(weights)
    while low < high:
        candidate = (low + high) // 2
        if days_needed(weights, candidate) <= day_limit:
            high = candidate
        else:
            low = candidate + 1
    return low


def main():
    first_line = sys.stdin.readline().split()
    package_count, day_limit = int(first_line[0]), int(first_line[1])
    weights = list(map(int, sys.stdin.readline().split()))[:package_count]
    print(smallest_capacity(weights, day_limit))


main()
