#include <iostream>
#include <vector>

namespace {

const int kModulus = 1000000007;

// Fast exponentiation modulo kModulus.
int powerMod(int base, int exponent) {
    long long result = 1;
    long long current = base;
    while (exponent > 0) {
        if (exponent & 1) result = result * current % kModulus;
        current = current * current % kModulus;
        exponent >>= 1;
    }
    return static_cast<int>(result);
}

class BinomialTable {
public:
    explicit BinomialTable(int limit) : factorial_(limit + 1), inverseFactorial_(limit + 1) {
        factorial_[0] = 1;
        for (int i = 1; i <= limit; ++i) {
            factorial_[i] = static_cast<int>(1LL * factorial_[i - 1] * i % kModulus);
        }
        // Fermat's little theorem gives the inverse of the largest factorial.
        inverseFactorial_[limit] = powerMod(factorial_[limit], kModulus - 2);
        for (int i = limit; i > 0; --i) {
            inverseFactorial_[i - 1] = static_cast<int>(1LL * inverseFactorial_[i] * i % kModulus);
        }
    }

    int choose(int n, int k) const {
        if (k < 0 || k > n) return 0;
        long long result = factorial_[n] * inverseFactorial_[k] % kModulus;
        return static_cast<int>(result * inverseFactorial_[n - k] % kModulus);
    }

private:
    std::vector<int> factorial_;
    std::vector<int> inverseFactorial_;
};

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int queryCount;
    std::cin >> queryCount;
    std::vector<std::pair<int, int>> queries(queryCount);
    int largestN = 0;
    for (auto& query : queries) {
        std::cin >> query.first >> query.second;
        if (query.first > largestN) largestN = query.first;
    }
    BinomialTable table(largestN);
    for (const auto& query : queries) {
        std::cout << table.choose(query.first, query.second) << "\n";
    }
    return 0;
}
