import sys


def sort_and_count(values):
    """Return (sorted copy of values, number of inversions inside values)."""
    if len(values) <= 1:
        return list(values), 0
    middle = len(values) // 2
    left, left_inversions = sort_and_count(values[:middle])
    right, right_inversions = sort_and_count(values[middle:])
    merged = []
    inversions = left_inversions + right_inversions
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            # every remaining element of the left half is larger than right[j]
            merged.append(right[j])
            inversions += len(left) - i
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged, inversions


def main():
    data = sys.stdin.read().split()
    count = int(data[0])
    years = [int(token) for token in data[1:1 + count]]
    _, inversions = sort_and_count(years)
    print(inversions)


if __name__ == "__main__":
    main()
