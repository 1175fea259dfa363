import math
import sys


def build_prime_table(limit):
    """Sieve of Eratosthenes: is_prime[k] tells whether k is prime, for 0 <= k <= limit."""
    is_prime = [True] * (limit + 1)
    is_prime[0] = False
    if limit >= 1:
        is_prime[1] = False
    for candidate in range(2, math.isqrt(limit) + 1):
        if not is_prime[candidate]:
            continue
        # cross out every multiple from candidate squared upwards in one slice
        multiples = range(candidate * candidate, limit + 1, candidate)
        is_prime[candidate * candidate::candidate] = [False] * len(multiples)
    return is_prime


def count_primes_between(low, high):
    is_prime = build_prime_table(high)
    return sum(is_prime[low:high + 1])


def main():
    low, high = map(int, sys.stdin.readline().split())
    print(count_primes_between(low, high))


if __name__ == "__main__":
    main()
