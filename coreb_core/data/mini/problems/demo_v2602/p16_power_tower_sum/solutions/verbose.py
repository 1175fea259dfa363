import sys

MODULUS = 1_000_000_007


def geometric_prefix(base, count):
    """Return (base^0 + ... + base^(count-1), base^count), both modulo MODULUS.

    Works by halving: the first half of the terms, and the second half is the
    first half multiplied by base^(half). No modular inverse is needed.
    """
    if count == 0:
        return 0, 1
    half_sum, half_power = geometric_prefix(base, count // 2)
    total = (half_sum + half_sum * half_power) % MODULUS
    power = half_power * half_power % MODULUS
    if count % 2 == 1:
        # one extra term at the top
        total = (total + power) % MODULUS
        power = power * base % MODULUS
    return total, power


def main():
    tokens = sys.stdin.read().split()
    query_count = int(tokens[0])
    answers = []
    for index in range(query_count):
        base = int(tokens[1 + 2 * index]) % MODULUS
        top_exponent = int(tokens[2 + 2 * index])
        total, _ = geometric_prefix(base, top_exponent + 1)
        answers.append(str(total))
    print("\n".join(answers))


if __name__ == "__main__":
    main()
