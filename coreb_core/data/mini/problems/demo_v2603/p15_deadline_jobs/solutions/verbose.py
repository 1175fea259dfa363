import sys


def parse_orders(text):
    values = list(map(int, text.split()))
    order_count = values[0]
    orders = []
    for index in range(order_count):
        duration = values[1 + 2 * index]
        promised = values[2 + 2 * index]
        orders.append((duration, promised))
    return orders


def smallest_worst_delay(orders):
    """Serve orders by earliest promise time; that order minimises the worst delay."""
    schedule = sorted(orders, key=lambda order: order[1])
    clock = 0
    worst = -float("inf")
    for duration, promised in schedule:
        clock += duration
        worst = max(worst, clock - promised)
    return worst


def main():
    orders = parse_orders(sys.stdin.read())
    print(smallest_worst_delay(orders))


if __name__ == "__main__":
    main()
