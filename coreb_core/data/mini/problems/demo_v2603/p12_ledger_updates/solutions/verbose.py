import sys


class FenwickTree:
    """Binary indexed tree over positions 1..size supporting point add and prefix sums."""

    def __init__(self, size):
        self.size = size
        self.tree = [0] * (size + 1)

    def add(self, position, delta):
        while position <= self.size:
            self.tree[position] += delta
            position += position & -position

    def prefix_sum(self, position):
        total = 0
        while position > 0:
            total += self.tree[position]
            position -= position & -position
        return total

    def range_sum(self, left, right):
        return self.prefix_sum(right) - self.prefix_sum(left - 1)


def main():
    data = sys.stdin.read().split()
    account_count, operation_count = int(data[0]), int(data[1])
    balances = [0] * (account_count + 1)
    ledger = FenwickTree(account_count)
    for account in range(1, account_count + 1):
        balances[account] = int(data[1 + account])
        ledger.add(account, balances[account])

    answers = []
    cursor = 2 + account_count
    for _ in range(operation_count):
        kind, first, second = int(data[cursor]), int(data[cursor + 1]), int(data[cursor + 2])
        cursor += 3
        if kind == 1:
            # Overwrite the balance: add the difference to the tree.
            ledger.add(first, second - balances[first])
            balances[first] = second
        else:
            answers.append(ledger.range_sum(first, second))
    sys.stdout.write("".join(f"{value}\n" for value in answers))


if __name__ == "__main__":
    main()
