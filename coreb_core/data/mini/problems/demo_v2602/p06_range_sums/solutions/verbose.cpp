#include <iostream>
#include <vector>

using Total = long long;

// Cumulative totals: prefix[i] is the sum of the first i readings.
std::vector<Total> buildPrefixSums(const std::vector<Total>& readings) {
    std::vector<Total> prefix(readings.size() + 1, 0);
    for (std::size_t i = 0; i < readings.size(); ++i) {
        prefix[i + 1] = prefix[i] + readings[i];
    }
    return prefix;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);

    int readingCount = 0;
    int questionCount = 0;
    std::cin >> readingCount >> questionCount;

    std::vector<Total> readings(readingCount);
    for (Total& reading : readings) {
        std::cin >> reading;
    }
    const std::vector<Total> prefix = buildPrefixSums(readings);

    for (int question = 0; question < questionCount; ++question) {
        int firstHour = 0;
        int lastHour = 0;
        std::cin >> firstHour >> lastHour;
        std::cout << prefix[lastHour] - prefix[firstHour - 1] << '\n';
    }
    return 0;
}
