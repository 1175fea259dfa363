import sys


def read_crates():
    """Parse the capacity and the list of (weight, value) crates from stdin."""
    tokens = sys.stdin.read().split()
    crate_count, capacity = int(tokens[0]), int(tokens[1])
    crates = []
    for index in range(crate_count):
        weight = int(tokens[2 + 2 * index])
        value = int(tokens[3 + 2 * index])
        crates.append((weight, value))
    return capacity, crates


def best_load_value(capacity, crates):
    # previous_row[c] = best value using the crates seen so far with total weight <= c
    previous_row = [0] * (capacity + 1)
    for weight, value in crates:
        current_row = previous_row[:]
        for load in range(weight, capacity + 1):
            candidate = previous_row[load - weight] + value
            if candidate > current_row[load]:
                current_row[load] = candidate
        previous_row = current_row
    return previous_row[capacity]


def main():
    capacity, crates = read_crates()
    print(best_load_value(capacity, crates))


if __name__ == "__main__":
    main()
