import sys


def read_route():
    """Return the number of stations, the fuel list and the cost list."""
    tokens = sys.stdin.read().split()
    station_count = int(tokens[0])
    fuel = [int(value) for value in tokens[1:1 + station_count]]
    cost = [int(value) for value in tokens[1 + station_count:1 + 2 * station_count]]
    return station_count, fuel, cost


def find_smallest_start(station_count, fuel, cost):
    # A station is a valid start exactly when the running balance just before it
    # is a global minimum and the overall balance is non-negative.  The first
    # position of the minimum is therefore the smallest valid start.
    running_balance = 0
    lowest_balance = 0
    best_start = 0
    for index in range(station_count):
        if running_balance < lowest_balance:
            lowest_balance = running_balance
            best_start = index
        running_balance += fuel[index] - cost[index]
    if running_balance < 0:
        return -1
    return best_start + 1


def main():
    station_count, fuel, cost = read_route()
    print(find_smallest_start(station_count, fuel, cost))


if __name__ == "__main__":
    main()
