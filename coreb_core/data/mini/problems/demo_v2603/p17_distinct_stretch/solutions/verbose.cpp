#include <algorithm>
#include <array>
#include <iostream>
#include <string>

// Length of the longest window of the row in which every character occurs once.
int longestDistinctWindow(const std::string& row) {
    std::array<int, 256> countInWindow{};
    int left = 0;
    int best = 0;
    for (int right = 0; right < static_cast<int>(row.size()); ++right) {
        unsigned char incoming = row[right];
        ++countInWindow[incoming];
        // Drop characters from the left until the new one is unique again.
        while (countInWindow[incoming] > 1) {
            unsigned char outgoing = row[left];
            --countInWindow[outgoing];
            ++left;
        }
        best = std::max(best, right - left + 1);
    }
    return best;
}

int main() {
    std::string row;
    std::getline(std::cin, row);
    while (!row.empty() && (row.back() == '\r' || row.back() == ' ')) {
        row.pop_back();
    }
    std::cout << longestDistinctWindow(row) << "\n";
    return 0;
}
