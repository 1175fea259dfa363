#include <iostream>
#include <vector>

using Length = long long;

// Euclid's algorithm; both arguments are non-negative.
Length greatestCommonDivisor(Length first, Length second) {
    while (second != 0) {
        Length remainder = first % second;
        first = second;
        second = remainder;
    }
    return first;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);

    int rodCount = 0;
    std::cin >> rodCount;
    std::vector<Length> lengths(rodCount);
    for (Length& length : lengths) {
        std::cin >> length;
    }

    Length pieceLength = 0;
    for (Length length : lengths) {
        pieceLength = greatestCommonDivisor(pieceLength, length);
    }

    int rodsAlreadyRight = 0;
    for (Length length : lengths) {
        if (length == pieceLength) {
            ++rodsAlreadyRight;
        }
    }

    std::cout << pieceLength << ' ' << rodsAlreadyRight << '\n';
    return 0;
}
