#include <cstdio>
#include <utility>
#include <vector>

namespace {

constexpr long long kModulus = 1000000007LL;

// Iterative depth-first search from `start`; returns vertices in post-order
// (every vertex appears after all vertices reachable from it).
std::vector<int> postOrderFrom(const std::vector<std::vector<int>>& successors, int start) {
    std::vector<int> order;
    std::vector<char> visited(successors.size(), 0);
    std::vector<std::pair<int, std::size_t>> stack;  // (vertex, next edge index)
    stack.emplace_back(start, 0);
    visited[start] = 1;
    while (!stack.empty()) {
        auto& [vertex, edgeIndex] = stack.back();
        if (edgeIndex < successors[vertex].size()) {
            int next = successors[vertex][edgeIndex++];
            if (!visited[next]) {
                visited[next] = 1;
                stack.emplace_back(next, 0);
            }
        } else {
            order.push_back(vertex);
            stack.pop_back();
        }
    }
    return order;
}

}  // namespace

int main() {
    int vertexCount = 0, edgeCount = 0;
    if (std::scanf("%d %d", &vertexCount, &edgeCount) != 2) {
        return 0;
    }
    std::vector<std::vector<int>> successors(vertexCount + 1);
    for (int i = 0; i < edgeCount; ++i) {
        int from = 0, to = 0;
        std::scanf("%d %d", &from, &to);
        successors[from].push_back(to);
    }
    // routesToEnd[v] = number of routes from v to the last vertex
    std::vector<long long> routesToEnd(vertexCount + 1, 0);
    for (int vertex : postOrderFrom(successors, 1)) {
        long long total = (vertex == vertexCount) ? 1 : 0;
        for (int next : successors[vertex]) {
            total = (total + routesToEnd[next]) % kModulus;
        }
        routesToEnd[vertex] = total;
    }
    std::printf("%lld\n", routesToEnd[1]);
    return 0;
}
