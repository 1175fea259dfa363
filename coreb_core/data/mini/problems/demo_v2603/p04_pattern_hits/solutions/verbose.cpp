#include <iostream>
#include <string>
#include <vector>

// Longest-border table used by Knuth-Morris-Pratt matching.
std::vector<int> computePrefixFunction(const std::string& pattern) {
    std::vector<int> border(pattern.size(), 0);
    for (size_t index = 1; index < pattern.size(); ++index) {
        int length = border[index - 1];
        while (length > 0 && pattern[index] != pattern[length]) {
            length = border[length - 1];
        }
        if (pattern[index] == pattern[length]) {
            ++length;
        }
        border[index] = length;
    }
    return border;
}

long long countMatches(const std::string& text, const std::string& pattern) {
    if (pattern.size() > text.size()) {
        return 0;
    }
    const std::vector<int> border = computePrefixFunction(pattern);
    const int patternLength = static_cast<int>(pattern.size());
    long long matches = 0;
    int matched = 0;
    for (char symbol : text) {
        while (matched > 0 && symbol != pattern[matched]) {
            matched = border[matched - 1];
        }
        if (symbol == pattern[matched]) {
            ++matched;
        }
        if (matched == patternLength) {
            ++matches;
            matched = border[matched - 1];  // keep overlapping candidates alive
        }
    }
    return matches;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string text, pattern;
    std::getline(std::cin, text);
    std::getline(std::cin, pattern);
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
    while (!pattern.empty() && (pattern.back() == '\r' || pattern.back() == ' ')) pattern.pop_back();
    std::cout << countMatches(text, pattern) << std::endl;
    return 0;
}
