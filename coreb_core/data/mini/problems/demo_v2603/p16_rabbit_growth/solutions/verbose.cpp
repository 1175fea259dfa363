#include <cstdint>
#include <iostream>
#include <utility>

namespace {

constexpr std::uint64_t kModulus = 1000000007ULL;

// Fast doubling: returns (F(k), F(k+1)) modulo kModulus.
std::pair<std::uint64_t, std::uint64_t> fibonacciPair(std::uint64_t k) {
    if (k == 0) {
        return {0, 1};
    }
    auto [fk, fk1] = fibonacciPair(k / 2);
    // F(2k) = F(k) * (2F(k+1) - F(k)),  F(2k+1) = F(k)^2 + F(k+1)^2
    std::uint64_t twiceNextMinus = (2 * fk1 % kModulus + kModulus - fk) % kModulus;
    std::uint64_t even = fk * twiceNextMinus % kModulus;
    std::uint64_t odd = (fk * fk % kModulus + fk1 * fk1 % kModulus) % kModulus;
    if (k % 2 == 0) {
        return {even, odd};
    }
    return {odd, (even + odd) % kModulus};
}

}  // namespace

int main() {
    std::uint64_t month = 0;
    std::cin >> month;
    std::cout << fibonacciPair(month).first << "\n";
    return 0;
}
