import sys


def build_failure_table(pattern):
    """failure[i] = length of the longest proper border of pattern[:i + 1]."""
    failure = [0] * len(pattern)
    border = 0
    for index in range(1, len(pattern)):
        while border > 0 and pattern[index] != pattern[border]:
            border = failure[border - 1]
        if pattern[index] == pattern[border]:
            border += 1
        failure[index] = border
    return failure


def count_occurrences(text, pattern):
    failure = build_failure_table(pattern)
    matched = 0
    occurrences = 0
    for symbol in text:
        while matched > 0 and symbol != pattern[matched]:
            matched = failure[matched - 1]
        if symbol == pattern[matched]:
            matched += 1
        if matched == len(pattern):
            occurrences += 1
            # start matching again for the next hit
            matched = 0
    return occurrences


def main():
    text = sys.stdin.readline().strip()
    pattern = sys.stdin.readline().strip()
    print(count_occurrences(text, pattern))


main()
