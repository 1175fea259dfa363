import sys


def digits_in_base(number, base):
    """Return the digits of number in the given base, most significant first."""
    if number == 0:
        return [0]
    digits = []
    while number > 0:
        number, remainder = divmod(number, base)
        digits.append(remainder)
    digits.reverse()
    return digits


def main():
    number_text, base_text = sys.stdin.readline().split()
    number, base = int(number_text), int(base_text)
    print(sum(digits_in_base(number, base)))


if __name__ == "__main__":
    main()
