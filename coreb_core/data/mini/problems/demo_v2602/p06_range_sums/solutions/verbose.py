import sys
from itertools import accumulate


def build_prefix_sums(readings):
    """prefix[i] holds the total of the first i readings; prefix[0] is 0."""
    return [0] + list(accumulate(readings))


def range_total(prefix, first_hour, last_hour):
    # Hours are 1-based and inclusive on both ends.
    return prefix[last_hour] - prefix[first_hour - 1]


def main():
    hour_count, question_count = map(int, sys.stdin.readline().split())
    readings = list(map(int, sys.stdin.readline().split()))
    assert len(readings) == hour_count
    prefix = build_prefix_sums(readings)
    answers = []
    for _ in range(question_count):
        first_hour, last_hour = map(int, sys.stdin.readline().split())
        answers.append(str(range_total(prefix, first_hour, last_hour)))
    sys.stdout.write("\n".join(answers) + "\n")


if __name__ == "__main__":
    main()
