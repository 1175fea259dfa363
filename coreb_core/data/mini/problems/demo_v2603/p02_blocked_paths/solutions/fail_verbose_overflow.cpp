#include <iostream>
#include <string>
#include <vector>

static const long long kModulus = 1000000007LL;

// ways[r][c] = number of right/down routes from (0,0) to (r,c) over free cells.
long long countRoutes(const std::vector<std::string>& grid) {
    const int height = static_cast<int>(grid.size());
    const int width = static_cast<int>(grid[0].size());
    std::vector<std::vector<long long>> ways(height, std::vector<long long>(width, 0));
    for (int row = 0; row < height; ++row) {
        for (int col = 0; col < width; ++col) {
            if (grid[row][col] == '#') {
                ways[row][col] = 0;
                continue;
            }
            if (row == 0 && col == 0) {
                ways[row][col] = 1;
                continue;
            }
            long long fromAbove = row > 0 ? ways[row - 1][col] : 0;
            long long fromLeft = col > 0 ? ways[row][col - 1] : 0;
            ways[row][col] = fromAbove + fromLeft;
        }
    }
    return ways[height - 1][width - 1] % kModulus;
}

int main() {
    int height, width;
    std::cin >> height >> width;
    std::vector<std::string> grid(height);
    for (auto& line : grid) std::cin >> line;
    std::cout << countRoutes(grid) << std::endl;
    return 0;
}
