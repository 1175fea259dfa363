import sys


def prime_exponents(number):
    """Yield the exponent of every prime factor of number (trial division)."""
    candidate = 2
    while candidate * candidate <= number:
        exponent = 0
        while number % candidate == 0:
            number //= candidate
            exponent += 1
        if exponent:
            yield exponent
        candidate += 1 if candidate == 2 else 2
    if number > 1:
        yield 1  # whatever remains is a single prime factor


def count_divisors(number):
    total = 1
    for exponent in prime_exponents(number):
        total *= exponent + 1
    return total


def main():
    number = int(sys.stdin.readline())
    print(count_divisors(number))


if __name__ == "__main__":
    main()
