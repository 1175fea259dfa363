#include <iostream>
#include <stack>
#include <vector>

// For each position, the value of the nearest strictly greater element to the right.
std::vector<long long> nextGreater(const std::vector<long long>& heights) {
    const int count = static_cast<int>(heights.size());
    std::vector<long long> result(count, -1);
    std::stack<long long> taller;  // candidates seen so far from the right
    for (int index = count - 1; index >= 0; --index) {
        while (!taller.empty() && taller.top() <= heights[index]) {
            taller.pop();
        }
        if (!taller.empty()) {
            result[index] = taller.top();
        }
        taller.push(heights[index]);
    }
    return result;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int count;
    std::cin >> count;
    std::vector<long long> heights(count);
    for (auto& height : heights) std::cin >> height;
    const std::vector<long long> result = nextGreater(heights);
    for (int index = 0; index < count; ++index) {
        if (index > 0) std::cout << ' ';
        std::cout << result[index];
    }
    std::cout << '\n';
    return 0;
}
