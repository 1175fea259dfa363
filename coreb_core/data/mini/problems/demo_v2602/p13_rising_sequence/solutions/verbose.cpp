#include <algorithm>
#include <iostream>
#include <vector>

// Fenwick tree answering "maximum over a prefix" with point "raise to at least" updates.
class PrefixMaxTree {
public:
    explicit PrefixMaxTree(int size) : values_(size + 1, 0) {}

    void raise(int position, int value) {
        for (; position < static_cast<int>(values_.size()); position += position & -position) {
            values_[position] = std::max(values_[position], value);
        }
    }

    int prefixMax(int position) const {
        int best = 0;
        for (; position > 0; position -= position & -position) {
            best = std::max(best, values_[position]);
        }
        return best;
    }

private:
    std::vector<int> values_;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);

    int count;
    std::cin >> count;
    std::vector<long long> heights(count);
    for (auto &height : heights) std::cin >> height;

    // Compress heights to ranks 1..distinct so they can index the tree.
    std::vector<long long> sortedHeights(heights);
    std::sort(sortedHeights.begin(), sortedHeights.end());
    sortedHeights.erase(std::unique(sortedHeights.begin(), sortedHeights.end()), sortedHeights.end());

    PrefixMaxTree tree(static_cast<int>(sortedHeights.size()));
    int answer = 0;
    for (long long height : heights) {
        int rank = static_cast<int>(std::lower_bound(sortedHeights.begin(), sortedHeights.end(), height)
                                    - sortedHeights.begin()) + 1;
        // Best chain ending strictly below this height, extended by this seedling.
        int chainLength = tree.prefixMax(rank - 1) + 1;
        tree.raise(rank, chainLength);
        answer = std::max(answer, chainLength);
    }
    std::cout << answer << "\n";
    return 0;
}
