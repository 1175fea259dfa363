#include <iostream>
#include <queue>
#include <vector>

// Breadth-first search over amounts: the first time we reach the target,
// the number of steps taken is the fewest tokens needed.
int fewestTokens(int target, const std::vector<int>& values) {
    std::vector<int> steps(target + 1, -1);
    std::queue<int> frontier;
    steps[0] = 0;
    frontier.push(0);
    while (!frontier.empty()) {
        int amount = frontier.front();
        frontier.pop();
        if (amount == target) {
            return steps[amount];
        }
        for (int value : values) {
            int next = amount + value;
            if (next <= target && steps[next] == -1) {
                steps[next] = steps[amount] + 1;
                frontier.push(next);
            }
        }
    }
    return -1;
}

int main() {
    int valueCount = 0;
    int target = 0;
    std::cin >> valueCount >> target;
    std::vector<int> values(valueCount);
    for (int& value : values) {
        std::cin >> value;
    }
    std::cout << fewestTokens(target, values) << std::endl;
    return 0;
}
