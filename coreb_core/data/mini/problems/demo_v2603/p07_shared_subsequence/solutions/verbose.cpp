#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

// Keeps only two rows of the dynamic-programming table to save memory.
static int longestCommonSubsequence(const std::string& first, const std::string& second) {
    const size_t cols = second.size();
    std::vector<int> previousRow(cols + 1, 0);
    std::vector<int> currentRow(cols + 1, 0);
    for (size_t i = 1; i <= first.size(); ++i) {
        currentRow[0] = 0;
        for (size_t j = 1; j <= cols; ++j) {
            if (first[i - 1] == second[j - 1]) {
                currentRow[j] = previousRow[j - 1] + 1;
            } else {
                currentRow[j] = std::max(previousRow[j], currentRow[j - 1]);
            }
        }
        std::swap(previousRow, currentRow);
    }
    return previousRow[cols];
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string firstCopy, secondCopy;
    std::cin >> firstCopy >> secondCopy;
    std::cout << longestCommonSubsequence(firstCopy, secondCopy) << "\n";
    return 0;
}
