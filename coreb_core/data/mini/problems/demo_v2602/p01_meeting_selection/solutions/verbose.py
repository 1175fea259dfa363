import sys


def read_requests():
    """Read the booking requests as a list of (start, end) pairs."""
    first_line = sys.stdin.readline()
    count = int(first_line)
    requests = []
    for _ in range(count):
        start, end = map(int, sys.stdin.readline().split())
        requests.append((start, end))
    return requests


def max_compatible(requests):
    """Greedy: always keep the booking that frees the room earliest."""
    ordered = sorted(requests, key=lambda booking: booking[1])
    approved = 0
    room_free_at = 0  # all times are non-negative
    for start, end in ordered:
        if start >= room_free_at:
            approved += 1
            room_free_at = end
    return approved


def main():
    requests = read_requests()
    print(max_compatible(requests))


if __name__ == "__main__":
    main()
