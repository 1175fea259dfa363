#include <functional>
#include <iostream>
#include <queue>
#include <vector>

// Maintains the lower median of a growing multiset with two heaps.
class MedianBoard {
public:
    void add(long long weight) {
        if (lowerHalf_.empty() || weight <= lowerHalf_.top()) {
            lowerHalf_.push(weight);
        } else {
            upperHalf_.push(weight);
        }
        rebalance();
    }

    long long lowerMedian() const { return lowerHalf_.top(); }

private:
    void rebalance() {
        if (lowerHalf_.size() > upperHalf_.size() + 1) {
            upperHalf_.push(lowerHalf_.top());
            lowerHalf_.pop();
        }
    }

    std::priority_queue<long long> lowerHalf_;
    std::priority_queue<long long, std::vector<long long>, std::greater<long long>> upperHalf_;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int count = 0;
    std::cin >> count;
    MedianBoard board;
    for (int i = 0; i < count; ++i) {
        long long weight;
        std::cin >> weight;
        board.add(weight);
        std::cout << board.lowerMedian() << '\n';
    }
    return 0;
}
