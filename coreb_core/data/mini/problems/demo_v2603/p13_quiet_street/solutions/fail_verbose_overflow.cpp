#include <algorithm>
#include <iostream>
#include <vector>

// Computes the best total over a row of values where no two chosen
// positions are next to each other, using a table dp[i] = best over first i.
static long long bestNonAdjacentTotal(const std::vector<long long>& values) {
    const size_t count = values.size();
    std::vector<int> bestPrefix(count + 1, 0);
    bestPrefix[1] = values[0];
    for (size_t i = 2; i <= count; ++i) {
        long long skipCurrent = bestPrefix[i - 1];
        long long takeCurrent = bestPrefix[i - 2] + values[i - 1];
        bestPrefix[i] = std::max(skipCurrent, takeCurrent);
    }
    return bestPrefix[count];
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int houseCount = 0;
    std::cin >> houseCount;
    std::vector<long long> pledges(houseCount);
    for (auto& amount : pledges) {
        std::cin >> amount;
    }
    std::cout << bestNonAdjacentTotal(pledges) << "\n";
    return 0;
}
