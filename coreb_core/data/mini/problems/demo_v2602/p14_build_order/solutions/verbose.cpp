#include <functional>
#include <iostream>
#include <queue>
#include <vector>

struct Workshop {
    int taskCount = 0;
    std::vector<std::vector<int>> unlocks;   // unlocks[a] = tasks that need a first
    std::vector<int> pendingPrerequisites;   // how many unfinished prerequisites each task has
};

static Workshop readWorkshop() {
    Workshop shop;
    int ruleCount;
    std::cin >> shop.taskCount >> ruleCount;
    shop.unlocks.assign(shop.taskCount + 1, {});
    shop.pendingPrerequisites.assign(shop.taskCount + 1, 0);
    for (int i = 0; i < ruleCount; ++i) {
        int before, after;
        std::cin >> before >> after;
        shop.unlocks[before].push_back(after);
        ++shop.pendingPrerequisites[after];
    }
    return shop;
}

// Repeatedly takes the smallest-numbered task whose prerequisites are all done.
static std::vector<int> buildSmallestOrder(Workshop &shop) {
    std::priority_queue<int, std::vector<int>, std::greater<int>> readyTasks;
    for (int task = 1; task <= shop.taskCount; ++task) {
        if (shop.pendingPrerequisites[task] == 0) readyTasks.push(task);
    }
    std::vector<int> order;
    order.reserve(shop.taskCount);
    while (!readyTasks.empty()) {
        int task = readyTasks.top();
        readyTasks.pop();
        order.push_back(task);
        for (int next : shop.unlocks[task]) {
            if (--shop.pendingPrerequisites[next] == 0) readyTasks.push(next);
        }
    }
    return order;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    Workshop shop = readWorkshop();
    std::vector<int> order = buildSmallestOrder(shop);
    if (static_cast<int>(order.size()) != shop.taskCount) {
        // Some tasks wait on each other in a loop and never become ready.
        std::cout << "IMPOSSIBLE\n";
        return 0;
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i) std::cout << ' ';
        std::cout << order[i];
    }
    std::cout << '\n';
    return 0;
}
