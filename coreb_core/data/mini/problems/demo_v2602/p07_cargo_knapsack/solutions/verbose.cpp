#include <algorithm>
#include <iostream>
#include <vector>

struct Crate {
    int weight;
    long long value;
};

// Classic 0/1 selection: a full table where table[i][c] is the best value
// reachable with the first i crates and total weight at most c.
long long bestLoadValue(const std::vector<Crate>& crates, int capacity) {
    const size_t crateCount = crates.size();
    std::vector<std::vector<long long>> table(crateCount + 1, std::vector<long long>(capacity + 1, 0));
    for (size_t i = 1; i <= crateCount; ++i) {
        const Crate& crate = crates[i - 1];
        for (int load = 0; load <= capacity; ++load) {
            long long skip = table[i - 1][load];
            long long take = 0;
            if (crate.weight <= load) {
                take = table[i - 1][load - crate.weight] + crate.value;
            }
            table[i][load] = std::max(skip, take);
        }
    }
    return table[crateCount][capacity];
}

int main() {
    std::ios::sync_with_stdio(false);
    int crateCount, capacity;
    std::cin >> crateCount >> capacity;
    std::vector<Crate> crates(crateCount);
    for (auto& crate : crates) {
        std::cin >> crate.weight >> crate.value;
    }
    std::cout << bestLoadValue(crates, capacity) << "\n";
    return 0;
}
