#include <iostream>
#include <queue>
#include <string>
#include <utility>
#include <vector>

struct Maze {
    int height = 0;
    int width = 0;
    std::vector<std::string> rows;

    bool isOpen(int row, int col) const {
        return row >= 0 && row < height && col >= 0 && col < width && rows[row][col] != '#';
    }
};

std::pair<int, int> findSymbol(const Maze& maze, char symbol) {
    for (int row = 0; row < maze.height; ++row) {
        for (int col = 0; col < maze.width; ++col) {
            if (maze.rows[row][col] == symbol) return {row, col};
        }
    }
    return {-1, -1};
}

// Classic BFS: the first time a tile is reached is along a shortest walk.
int shortestWalk(const Maze& maze) {
    const auto start = findSymbol(maze, 'S');
    const auto goal = findSymbol(maze, 'E');
    std::vector<std::vector<int>> distance(maze.height, std::vector<int>(maze.width, -1));
    std::queue<std::pair<int, int>> frontier;
    distance[start.first][start.second] = 0;
    frontier.push(start);
    const int rowStep[4] = {1, -1, 0, 0};
    const int colStep[4] = {0, 0, 1, -1};
    while (!frontier.empty()) {
        auto [row, col] = frontier.front();
        frontier.pop();
        for (int dir = 0; dir < 4; ++dir) {
            int nextRow = row + rowStep[dir];
            int nextCol = col + colStep[dir];
            if (!maze.isOpen(nextRow, nextCol) || distance[nextRow][nextCol] != -1) continue;
            distance[nextRow][nextCol] = distance[row][col] + 1;
            frontier.push({nextRow, nextCol});
        }
    }
    return distance[goal.first][goal.second];
}

int main() {
    std::ios::sync_with_stdio(false);
    Maze maze;
    std::cin >> maze.height >> maze.width;
    maze.rows.resize(maze.height);
    for (auto& line : maze.rows) std::cin >> line;
    std::cout << shortestWalk(maze) << "\n";
    return 0;
}
