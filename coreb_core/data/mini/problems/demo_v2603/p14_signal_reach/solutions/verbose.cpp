#include <iostream>
#include <queue>
#include <vector>

struct Network {
    int nodeCount = 0;
    std::vector<std::vector<int>> links;
};

// Returns hop distances from the source, -1 for nodes never reached.
std::vector<int> hopDistances(const Network& network, int source) {
    std::vector<int> distance(network.nodeCount + 1, -1);
    std::queue<int> pending;
    distance[source] = 0;
    pending.push(source);
    while (!pending.empty()) {
        int current = pending.front();
        pending.pop();
        for (int neighbour : network.links[current]) {
            if (distance[neighbour] == -1) {
                distance[neighbour] = distance[current] + 1;
                pending.push(neighbour);
            }
        }
    }
    return distance;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int linkCount = 0, source = 0, maxHops = 0;
    Network network;
    std::cin >> network.nodeCount >> linkCount >> source >> maxHops;
    network.links.assign(network.nodeCount + 1, {});
    for (int i = 0; i < linkCount; ++i) {
        int first, second;
        std::cin >> first >> second;
        network.links[first].push_back(second);
        network.links[second].push_back(first);
    }
    std::vector<int> distance = hopDistances(network, source);
    int reachable = 0;
    for (int node = 1; node <= network.nodeCount; ++node) {
        if (distance[node] != -1 && distance[node] <= maxHops) {
            ++reachable;
        }
    }
    std::cout << reachable << "\n";
    return 0;
}
