#include <cstdint>
#include <iostream>
#include <vector>

// Fenwick tree (binary indexed tree) with 1-based positions.
class FenwickTree {
public:
    explicit FenwickTree(int size) : size_(size), tree_(size + 1, 0) {}

    void add(int position, long long delta) {
        for (; position <= size_; position += position & -position) {
            tree_[position] += delta;
        }
    }

    long long prefixSum(int position) const {
        long long total = 0;
        for (; position > 0; position -= position & -position) {
            total += tree_[position];
        }
        return total;
    }

    long long rangeSum(int left, int right) const {
        return prefixSum(right) - prefixSum(left - 1);
    }

private:
    int size_;
    std::vector<long long> tree_;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int accountCount, operationCount;
    std::cin >> accountCount >> operationCount;
    std::vector<long long> balances(accountCount + 1, 0);
    FenwickTree ledger(accountCount);
    for (int account = 1; account <= accountCount; ++account) {
        std::cin >> balances[account];
        ledger.add(account, balances[account]);
    }
    for (int step = 0; step < operationCount; ++step) {
        int kind;
        long long first, second;
        std::cin >> kind >> first >> second;
        if (kind == 1) {
            int account = static_cast<int>(first);
            ledger.add(account, second - balances[account]);  // store only the change
            balances[account] = second;
        } else {
            std::cout << ledger.rangeSum(static_cast<int>(first), static_cast<int>(second)) << "\n";
        }
    }
    return 0;
}
