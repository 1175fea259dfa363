#include <cstdint>
#include <iostream>
#include <utility>

namespace {

const std::int64_t kModulus = 1000000007LL;

// Returns {base^0 + ... + base^(termCount-1), base^termCount} modulo kModulus,
// splitting the series into two halves recursively.
std::pair<std::int64_t, std::int64_t> seriesAndPower(std::int64_t base, std::int64_t termCount) {
    if (termCount == 0) {
        return {0, 1};
    }
    auto [halfSum, halfPower] = seriesAndPower(base, termCount / 2);
    std::int64_t sum = (halfSum + halfSum * halfPower) % kModulus;
    std::int64_t power = halfPower * halfPower % kModulus;
    if (termCount % 2 == 1) {
        sum = (sum + power) % kModulus;
        power = power * base % kModulus;
    }
    return {sum, power};
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int queryCount;
    std::cin >> queryCount;
    while (queryCount--) {
        std::int64_t base, topExponent;
        std::cin >> base >> topExponent;
        std::int64_t reducedBase = base % kModulus;
        // topExponent + 1 terms: exponents 0 through topExponent.
        std::cout << seriesAndPower(reducedBase, topExponent + 1).first << '\n';
    }
    return 0;
}
