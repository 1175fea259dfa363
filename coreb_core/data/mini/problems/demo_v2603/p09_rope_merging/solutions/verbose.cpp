#include <algorithm>
#include <deque>
#include <iostream>
#include <vector>

// Two-queue technique: the original lengths are sorted once, and merged ropes are
// produced in non-decreasing order, so the smallest rope is always at one of the two fronts.
static long long takeSmallest(std::deque<long long>& originals, std::deque<long long>& merged) {
    if (merged.empty() || (!originals.empty() && originals.front() <= merged.front())) {
        long long value = originals.front();
        originals.pop_front();
        return value;
    }
    long long value = merged.front();
    merged.pop_front();
    return value;
}

static long long minimumMergeCost(std::vector<long long> lengths) {
    std::sort(lengths.begin(), lengths.end());
    std::deque<long long> originals(lengths.begin(), lengths.end());
    std::deque<long long> merged;
    long long totalCost = 0;
    while (originals.size() + merged.size() > 1) {
        long long first = takeSmallest(originals, merged);
        long long second = takeSmallest(originals, merged);
        totalCost += first + second;
        merged.push_back(first + second);
    }
    return totalCost;
}

int main() {
    std::ios::sync_with_stdio(false);
    int ropeCount;
    std::cin >> ropeCount;
    std::vector<long long> lengths(ropeCount);
    for (long long& length : lengths) {
        std::cin >> length;
    }
    std::cout << minimumMergeCost(lengths) << "\n";
    return 0;
}
