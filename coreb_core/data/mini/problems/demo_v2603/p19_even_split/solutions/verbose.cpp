#include <iostream>
#include <numeric>
#include <vector>

// Checks whether a subset of the weights sums to exactly half of the total.
static bool canSplitEvenly(const std::vector<int>& weights) {
    const int total = std::accumulate(weights.begin(), weights.end(), 0);
    if (total % 2 != 0) {
        return false;
    }
    const int target = total / 2;
    std::vector<bool> reachable(target + 1, false);
    reachable[0] = true;  // the empty subset
    for (int weight : weights) {
        // walk downwards so every weight is taken at most once
        for (int sum = target; sum >= weight; --sum) {
            if (reachable[sum - weight]) {
                reachable[sum] = true;
            }
        }
    }
    return reachable[target];
}

int main() {
    int parcelCount = 0;
    std::cin >> parcelCount;
    std::vector<int> weights(parcelCount);
    for (int& weight : weights) {
        std::cin >> weight;
    }
    std::cout << (canSplitEvenly(weights) ? "YES" : "NO") << std::endl;
    return 0;
}
