import sys


def prefix_function(text):
    """border[i] = length of the longest proper prefix of text[:i+1] that is also its suffix."""
    border = [0] * len(text)
    matched = 0
    for index in range(1, len(text)):
        while matched > 0 and text[index] != text[matched]:
            matched = border[matched - 1]
        if text[index] == text[matched]:
            matched += 1
        border[index] = matched
    return border


def smallest_repeating_unit(text):
    length = len(text)
    candidate = length - prefix_function(text)[-1]
    # The candidate only tiles the whole string when it divides the length.
    if length % candidate == 0:
        return candidate
    return length


def main():
    pattern = sys.stdin.readline().strip()
    print(smallest_repeating_unit(pattern))


if __name__ == "__main__":
    main()
