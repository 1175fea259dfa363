#include <iostream>
#include <vector>

// Linear sieve: every composite is crossed out exactly once by its smallest prime factor.
std::vector<int> smallestFactors(int limit, std::vector<int>& primes) {
    std::vector<int> smallestFactor(limit + 1, 0);
    for (int value = 2; value <= limit; ++value) {
        if (smallestFactor[value] == 0) {
            smallestFactor[value] = value;
            primes.push_back(value);
        }
        for (int prime : primes) {
            long long composite = 1LL * prime * value;
            if (prime > smallestFactor[value] || composite > limit) {
                break;
            }
            smallestFactor[composite] = prime;
        }
    }
    return smallestFactor;
}

int countPrimesBetween(int low, int high) {
    std::vector<int> primes;
    smallestFactors(high, primes);
    int count = 0;
    for (int prime : primes) {
        if (prime >= low && prime <= high) {
            ++count;
        }
    }
    return count;
}

int main() {
    int low, high;
    std::cin >> low >> high;
    std::cout << countPrimesBetween(low, high) << "\n";
    return 0;
}
