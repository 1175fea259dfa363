import sys


def prefix_function(text):
    """pi[i] = length of the longest proper border of text[:i + 1]."""
    pi = [0] * len(text)
    for i in range(1, len(text)):
        border = pi[i - 1]
        while border > 0 and text[i] != text[border]:
            border = pi[border - 1]
        if text[i] == text[border]:
            border += 1
        pi[i] = border
    return pi


def smallest_rotation_shift(original, candidate):
    """Return the smallest k with original[k:] + original[:k] == candidate, or None."""
    if len(original) != len(candidate):
        return None
    length = len(candidate)
    # search the candidate inside original doubled (minus its last letter)
    combined = candidate + "#" + original + original[:-1]
    pi = prefix_function(combined)
    for index in range(2 * length, len(combined)):
        if pi[index] == length:
            return index - 2 * length
    return None


def main():
    original = sys.stdin.readline().strip()
    candidate = sys.stdin.readline().strip()
    shift = smallest_rotation_shift(original, candidate)
    if shift is None:
        print("NO")
    else:
        print("YES")
        print(shift)


if __name__ == "__main__":
    main()
