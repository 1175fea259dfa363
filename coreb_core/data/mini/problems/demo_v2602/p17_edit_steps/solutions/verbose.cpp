#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

// Minimum number of single-letter insertions, deletions and overwrites
// needed to turn `received` into `intended`. Keeps only two table rows.
int minimumEdits(const std::string &received, const std::string &intended) {
    const int receivedLength = static_cast<int>(received.size());
    const int intendedLength = static_cast<int>(intended.size());

    std::vector<int> previousRow(intendedLength + 1);
    std::vector<int> currentRow(intendedLength + 1);
    for (int j = 0; j <= intendedLength; ++j) {
        previousRow[j] = j;  // build intended[0..j) from nothing
    }

    for (int i = 1; i <= receivedLength; ++i) {
        currentRow[0] = i;  // erase received[0..i)
        for (int j = 1; j <= intendedLength; ++j) {
            const bool sameLetter = received[i - 1] == intended[j - 1];
            const int overwrite = previousRow[j - 1] + (sameLetter ? 0 : 1);
            const int erase = previousRow[j] + 1;
            const int insert = currentRow[j - 1] + 1;
            currentRow[j] = std::min({overwrite, erase, insert});
        }
        std::swap(previousRow, currentRow);
    }
    return previousRow[intendedLength];
}

int main() {
    std::string received, intended;
    std::cin >> received >> intended;
    std::cout << minimumEdits(received, intended) << '\n';
    return 0;
}
