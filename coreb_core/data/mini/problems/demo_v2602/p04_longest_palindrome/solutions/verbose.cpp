#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

// Manacher's algorithm on the string with separators inserted between letters,
// so odd and even palindromes are handled by the same loop.
int longestPalindromeLength(const std::string& text) {
    std::string padded = "^";
    for (char letter : text) {
        padded += '#';
        padded += letter;
    }
    padded += "#$";

    const int size = static_cast<int>(padded.size());
    std::vector<int> radius(size, 0);
    int center = 0;
    int rightEdge = 0;
    for (int i = 1; i < size - 1; ++i) {
        if (i < rightEdge) {
            int mirror = 2 * center - i;
            radius[i] = std::min(rightEdge - i, radius[mirror]);
        }
        while (padded[i + radius[i] + 1] == padded[i - radius[i] - 1]) {
            ++radius[i];
        }
        if (i + radius[i] > rightEdge) {
            center = i;
            rightEdge = i + radius[i];
        }
    }
    // A radius in the padded string equals the palindrome length in the original.
    return *std::max_element(radius.begin(), radius.end());
}

int main() {
    std::string ribbon;
    std::cin >> ribbon;
    std::cout << longestPalindromeLength(ribbon) << std::endl;
    return 0;
}
