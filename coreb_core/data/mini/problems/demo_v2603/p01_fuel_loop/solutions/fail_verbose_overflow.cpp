#include <iostream>
#include <vector>

// Greedy scan: whenever the tank would become negative, no station between the
// current start and here can be a valid start, so restart right after it.
int findStartStation(const std::vector<int>& fuel, const std::vector<int>& cost) {
    int totalBalance = 0;
    int tank = 0;
    int candidate = 0;
    for (size_t station = 0; station < fuel.size(); ++station) {
        int gain = fuel[station] - cost[station];
        totalBalance += gain;
        tank += gain;
        if (tank < 0) {
            tank = 0;
            candidate = static_cast<int>(station) + 1;
        }
    }
    if (totalBalance < 0) {
        return -1;
    }
    return candidate + 1;  // report 1-based
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int stationCount;
    std::cin >> stationCount;
    std::vector<int> fuel(stationCount), cost(stationCount);
    for (auto& amount : fuel) std::cin >> amount;
    for (auto& amount : cost) std::cin >> amount;
    std::cout << findStartStation(fuel, cost) << "\n";
    return 0;
}
