#include <cstdint>
#include <iostream>
#include <vector>

// Digits of `value` in `base`, least significant first; zero yields {0}.
static std::vector<int> digitsInBase(std::uint64_t value, std::uint64_t base) {
    std::vector<int> digits;
    do {
        digits.push_back(static_cast<int>(value % base));
        value /= base;
    } while (value != 0);
    return digits;
}

int main() {
    std::uint64_t number = 0;
    std::uint64_t base = 0;
    std::cin >> number >> base;
    long long inkWeight = 0;
    for (int digit : digitsInBase(number, base)) {
        inkWeight += digit;
    }
    std::cout << inkWeight << std::endl;
    return 0;
}
