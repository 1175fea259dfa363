#include <cstdint>
#include <iostream>
#include <limits>
#include <set>
#include <utility>
#include <vector>

using Cost = std::int64_t;
const Cost kUnreached = std::numeric_limits<Cost>::max();

struct Road {
    int destination;
    Cost toll;
};

// Dijkstra driven by an ordered set so that entries can be decreased in place.
std::vector<Cost> cheapestCosts(const std::vector<std::vector<Road>>& roads, int source) {
    std::vector<Cost> bestCost(roads.size(), kUnreached);
    std::set<std::pair<Cost, int>> frontier;
    bestCost[source] = 0;
    frontier.insert({0, source});
    while (!frontier.empty()) {
        auto [costSoFar, junction] = *frontier.begin();
        frontier.erase(frontier.begin());
        for (const Road& road : roads[junction]) {
            Cost candidate = costSoFar + road.toll;
            if (candidate < bestCost[road.destination]) {
                if (bestCost[road.destination] != kUnreached) {
                    frontier.erase({bestCost[road.destination], road.destination});
                }
                bestCost[road.destination] = candidate;
                frontier.insert({candidate, road.destination});
            }
        }
    }
    return bestCost;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int junctionCount, roadCount;
    std::cin >> junctionCount >> roadCount;
    std::vector<std::vector<Road>> roads(junctionCount + 1);
    for (int i = 0; i < roadCount; ++i) {
        int from, to;
        Cost toll;
        std::cin >> from >> to >> toll;
        roads[from].push_back({to, toll});
        roads[to].push_back({from, toll});
    }
    std::vector<Cost> bestCost = cheapestCosts(roads, 1);
    Cost answer = bestCost[junctionCount];
    std::cout << (answer == kUnreached ? -1 : answer) << "\n";
    return 0;
}
