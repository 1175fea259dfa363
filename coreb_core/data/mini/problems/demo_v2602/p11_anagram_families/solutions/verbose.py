import sys
from collections import defaultdict


def letter_signature(word):
    """Two words are anagrams exactly when their letter counts agree."""
    counts = [0] * 26
    for letter in word:
        counts[ord(letter) - ord("a")] += 1
    return tuple(counts)


def group_sizes(words):
    families = defaultdict(int)
    for word in words:
        families[letter_signature(word)] += 1
    return list(families.values())


def main():
    first_line = sys.stdin.readline()
    word_count = int(first_line)
    words = []
    while len(words) < word_count:
        words.extend(sys.stdin.readline().split())
    sizes = group_sizes(words)
    print(len(sizes), max(sizes))


if __name__ == "__main__":
    main()
