#include <iostream>
#include <numeric>
#include <string>
#include <vector>

// Disjoint-set forest over grid cells; the number of islands equals the
// number of land cells minus the number of successful merges.
class DisjointSet {
public:
    explicit DisjointSet(int size) : parent_(size), rank_(size, 0) {
        std::iota(parent_.begin(), parent_.end(), 0);
    }

    int find(int node) {
        while (parent_[node] != node) {
            parent_[node] = parent_[parent_[node]];
            node = parent_[node];
        }
        return node;
    }

    bool unite(int first, int second) {
        int rootA = find(first);
        int rootB = find(second);
        if (rootA == rootB) return false;
        if (rank_[rootA] < rank_[rootB]) std::swap(rootA, rootB);
        parent_[rootB] = rootA;
        if (rank_[rootA] == rank_[rootB]) ++rank_[rootA];
        return true;
    }

private:
    std::vector<int> parent_;
    std::vector<int> rank_;
};

int countIslands(const std::vector<std::string>& chart, int rows, int cols) {
    DisjointSet sets(rows * cols);
    int components = 0;
    for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
            if (chart[row][col] != '#') continue;
            ++components;
            int cell = row * cols + col;
            // Only look up and left: every adjacent pair is seen exactly once.
            if (row > 0 && chart[row - 1][col] == '#' && sets.unite(cell, cell - cols)) --components;
            if (col > 0 && chart[row][col - 1] == '#' && sets.unite(cell, cell - 1)) --components;
        }
    }
    return components;
}

int main() {
    int rows = 0, cols = 0;
    std::cin >> rows >> cols;
    std::vector<std::string> chart(rows);
    for (std::string& line : chart) {
        std::cin >> line;
    }
    std::cout << countIslands(chart, rows, cols) << std::endl;
    return 0;
}
