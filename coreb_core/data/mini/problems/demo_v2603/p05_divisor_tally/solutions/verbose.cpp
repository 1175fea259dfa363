#include <cstdint>
#include <iostream>

// Counts divisors through the prime factorisation n = p1^e1 * ... * pk^ek,
// whose divisor count is (e1 + 1) * ... * (ek + 1).
std::int64_t countDivisors(std::int64_t number) {
    std::int64_t divisorCount = 1;
    for (std::int64_t prime = 2; prime * prime <= number; ++prime) {
        int exponent = 0;
        while (number % prime == 0) {
            number /= prime;
            ++exponent;
        }
        divisorCount *= exponent + 1;
    }
    if (number > 1) {
        divisorCount *= 2;  // one leftover prime factor larger than sqrt
    }
    return divisorCount;
}

int main() {
    std::int64_t number = 0;
    std::cin >> number;
    std::cout << countDivisors(number) << std::endl;
    return 0;
}
