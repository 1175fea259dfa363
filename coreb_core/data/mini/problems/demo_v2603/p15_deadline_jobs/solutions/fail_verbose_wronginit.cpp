#include <algorithm>
#include <climits>
#include <iostream>
#include <vector>

struct RepairOrder {
    long long duration;
    long long promisedTime;
};

// Processes the orders by promised time and reports the worst (largest) delay.
long long minimalWorstDelay(std::vector<RepairOrder> orders) {
    std::sort(orders.begin(), orders.end(), [](const RepairOrder& a, const RepairOrder& b) {
        return a.promisedTime < b.promisedTime;
    });
    long long clock = 0;
    long long worstDelay = 0;
    for (const RepairOrder& order : orders) {
        clock += order.duration;
        worstDelay = std::max(worstDelay, clock - order.promisedTime);
    }
    return worstDelay;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int orderCount = 0;
    std::cin >> orderCount;
    std::vector<RepairOrder> orders(orderCount);
    for (RepairOrder& order : orders) {
        std::cin >> order.duration >> order.promisedTime;
    }
    std::cout << minimalWorstDelay(orders) << "\n";
    return 0;
}
