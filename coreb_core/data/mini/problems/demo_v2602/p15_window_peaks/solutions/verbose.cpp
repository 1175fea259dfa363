#include <iostream>
#include <string>
#include <vector>

// Circular-buffer-free monotonic queue implemented on a plain vector with a head pointer.
class DecreasingIndexQueue {
public:
    explicit DecreasingIndexQueue(const std::vector<long long> &values) : values_(values) {
        slots_.reserve(values.size());
    }

    void pushIndex(int index) {
        while (head_ < slots_.size() && values_[slots_.back()] <= values_[index]) {
            slots_.pop_back();
        }
        slots_.push_back(index);
    }

    void dropIndicesBefore(int firstValidIndex) {
        while (head_ < slots_.size() && slots_[head_] < firstValidIndex) {
            ++head_;
        }
    }

    long long currentMaximum() const { return values_[slots_[head_]]; }

private:
    const std::vector<long long> &values_;
    std::vector<int> slots_;
    std::size_t head_ = 0;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);

    int readingCount, windowWidth;
    std::cin >> readingCount >> windowWidth;
    std::vector<long long> readings(readingCount);
    for (auto &reading : readings) std::cin >> reading;

    DecreasingIndexQueue queue(readings);
    std::string output;
    for (int index = 0; index < readingCount; ++index) {
        queue.pushIndex(index);
        int windowStart = index - windowWidth + 1;
        queue.dropIndicesBefore(windowStart);
        if (windowStart >= 0) {
            if (!output.empty()) output += ' ';
            output += std::to_string(queue.currentMaximum());
        }
    }
    std::cout << output << '\n';
    return 0;
}
