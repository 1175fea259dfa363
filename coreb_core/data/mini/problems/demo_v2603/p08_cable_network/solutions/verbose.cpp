#include <algorithm>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <vector>

struct Cable {
    int from;
    int to;
    long long cost;
};

// Union-find over stations, with union by rank and path compression.
class DisjointSets {
public:
    explicit DisjointSets(int size) : parent_(size), rank_(size, 0) {
        std::iota(parent_.begin(), parent_.end(), 0);
    }

    int find(int node) {
        while (parent_[node] != node) {
            parent_[node] = parent_[parent_[node]];
            node = parent_[node];
        }
        return node;
    }

    bool unite(int a, int b) {
        a = find(a);
        b = find(b);
        if (a == b) return false;
        if (rank_[a] < rank_[b]) std::swap(a, b);
        parent_[b] = a;
        if (rank_[a] == rank_[b]) ++rank_[a];
        return true;
    }

private:
    std::vector<int> parent_;
    std::vector<int> rank_;
};

// Returns the cheapest total cost that links every station, or -1 if impossible.
long long minimumSpanningCost(int stationCount, std::vector<Cable> cables) {
    std::sort(cables.begin(), cables.end(),
              [](const Cable& left, const Cable& right) { return left.cost < right.cost; });
    DisjointSets sets(stationCount + 1);
    long long totalCost = 0;
    int usedCables = 0;
    for (const Cable& cable : cables) {
        if (sets.unite(cable.from, cable.to)) {
            totalCost += cable.cost;
            ++usedCables;
        }
    }
    return usedCables == stationCount - 1 ? totalCost : -1;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int stationCount, cableCount;
    std::cin >> stationCount >> cableCount;
    std::vector<Cable> cables(cableCount);
    for (Cable& cable : cables) {
        std::cin >> cable.from >> cable.to >> cable.cost;
    }
    std::cout << minimumSpanningCost(stationCount, cables) << "\n";
    return 0;
}
