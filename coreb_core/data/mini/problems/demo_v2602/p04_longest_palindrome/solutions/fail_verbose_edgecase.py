import sys


def palindrome_length_around(text, left, right):
    """Grow outwards from the given center while the ends match; return the length found."""
    while left >= 0 and right < len(text) and text[left] == text[right]:
        left -= 1
        right += 1
    return right - left - 1


def max_palindrome_span(text):
    longest = 0
    for center in range(len(text)):
        odd_length = palindrome_length_around(text, center, center)
        even_length = palindrome_length_around(text, center, center + 1)
        longest = max(longest, odd_length)
    return longest


def main():
    ribbon = sys.stdin.readline().strip()
    print(max_palindrome_span(ribbon))


if __name__ == "__main__":
    main()
