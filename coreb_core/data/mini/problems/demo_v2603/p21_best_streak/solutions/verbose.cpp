#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

// Kadane's scan: the best run ending at each position either extends the
// previous run or starts fresh at the current value.
static std::int64_t maximumRunSum(const std::vector<std::int64_t>& values) {
    std::int64_t bestEndingHere = values.front();
    std::int64_t bestOverall = values.front();
    for (std::size_t index = 1; index < values.size(); ++index) {
        bestEndingHere = std::max(values[index], bestEndingHere + values[index]);
        bestOverall = std::max(bestOverall, bestEndingHere);
    }
    return bestOverall;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::size_t dayCount = 0;
    std::cin >> dayCount;
    std::vector<std::int64_t> profits(dayCount);
    for (auto& profit : profits) {
        std::cin >> profit;
    }
    std::cout << maximumRunSum(profits) << '\n';
    return 0;
}
