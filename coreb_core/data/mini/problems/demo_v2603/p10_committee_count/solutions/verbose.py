import sys

MODULUS = 1_000_000_007


class BinomialTable:
    """Factorials and inverse factorials modulo a prime, for O(1) binomial queries."""

    def __init__(self, limit):
        self.factorial = [1] * (limit + 1)
        for value in range(1, limit + 1):
            self.factorial[value] = self.factorial[value - 1] * value % MODULUS
        self.inverse_factorial = [1] * (limit + 1)
        # Fermat's little theorem: a^(p-2) is the inverse of a modulo a prime p.
        self.inverse_factorial[limit] = pow(self.factorial[limit], MODULUS - 2, MODULUS)
        for value in range(limit, 0, -1):
            self.inverse_factorial[value - 1] = self.inverse_factorial[value] * value % MODULUS

    def choose(self, n, k):
        if k < 0 or k > n:
            return 0
        return self.factorial[n] * self.inverse_factorial[k] % MODULUS * self.inverse_factorial[n - k] % MODULUS


def main():
    numbers = [int(token) for token in sys.stdin.read().split()]
    query_count = numbers[0]
    queries = [(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(query_count)]
    table = BinomialTable(max(n for n, _ in queries))
    answers = [table.choose(n, k) for n, k in queries]
    sys.stdout.write("\n".join(map(str, answers)) + "\n")


if __name__ == "__main__":
    main()
