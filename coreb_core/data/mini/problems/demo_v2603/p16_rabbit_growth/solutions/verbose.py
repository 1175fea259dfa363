import sys

MODULUS = 1_000_000_007


def multiply(left, right):
    """Product of two 2x2 matrices, entries reduced modulo MODULUS."""
    return [
        [
            (left[row][0] * right[0][col] + left[row][1] * right[1][col]) % MODULUS
            for col in range(2)
        ]
        for row in range(2)
    ]


def matrix_power(base, exponent):
    result = [[1, 0], [0, 1]]
    while exponent > 0:
        if exponent & 1:
            result = multiply(result, base)
        base = multiply(base, base)
        exponent >>= 1
    return result


def pairs_in_month(month):
    # [[1,1],[1,0]]^k = [[F(k+1), F(k)], [F(k), F(k-1)]]
    if month == 0:
        return 0
    step = [[1, 1], [1, 0]]
    return matrix_power(step, month - 1)[0][0]


def main():
    month = int(sys.stdin.readline())
    print(pairs_in_month(month))


if __name__ == "__main__":
    main()
