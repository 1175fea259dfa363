#include <cstddef>
#include <iostream>
#include <list>
#include <unordered_map>

// Least-recently-used store: the list keeps keys from oldest (front) to newest (back).
class RecentlyUsedShelf {
public:
    explicit RecentlyUsedShelf(std::size_t capacity) : capacity_(capacity) {}

    // Returns true when the key was not stored (a miss).
    bool request(int key) {
        auto found = positions_.find(key);
        if (found != positions_.end()) {
            order_.splice(order_.end(), order_, found->second);
            return false;
        }
        order_.push_back(key);
        positions_[key] = std::prev(order_.end());
        if (order_.size() > capacity_) {
            evictOldest();
        }
        return true;
    }

private:
    void evictOldest() {
        positions_.erase(order_.front());
        order_.pop_front();
    }

    std::size_t capacity_;
    std::list<int> order_;
    std::unordered_map<int, std::list<int>::iterator> positions_;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::size_t capacity = 0;
    int requestCount = 0;
    std::cin >> capacity >> requestCount;
    RecentlyUsedShelf shelf(capacity);
    long long trips = 0;
    for (int i = 0; i < requestCount; ++i) {
        int key = 0;
        std::cin >> key;
        if (shelf.request(key)) {
            ++trips;
        }
    }
    std::cout << trips << '\n';
    return 0;
}
