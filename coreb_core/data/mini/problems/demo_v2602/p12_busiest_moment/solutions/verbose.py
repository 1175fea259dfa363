import sys

OPENS = 0   # sorts before CLOSES, so touching intervals count as overlapping
CLOSES = 1


def read_intervals():
    tokens = sys.stdin.read().split()
    count = int(tokens[0])
    return [(int(tokens[1 + 2 * i]), int(tokens[2 + 2 * i])) for i in range(count)]


def peak_overlap(intervals):
    """Sweep the timeline, processing openings before closings at equal times."""
    events = []
    for start, end in intervals:
        events.append((start, OPENS))
        events.append((end, CLOSES))
    events.sort()
    active = 0
    most_active = 0
    for _, kind in events:
        if kind == OPENS:
            active += 1
            most_active = max(most_active, active)
        else:
            active -= 1
    return most_active


def main():
    print(peak_overlap(read_intervals()))


if __name__ == "__main__":
    main()
