#include <iostream>
#include <string>
#include <vector>

// Computes the classic prefix function (failure links) of the text.
std::vector<int> computePrefixFunction(const std::string& text) {
    std::vector<int> border(text.size(), 0);
    int matched = 0;
    for (size_t index = 1; index < text.size(); ++index) {
        while (matched > 0 && text[index] != text[matched]) {
            matched = border[matched - 1];
        }
        if (text[index] == text[matched]) {
            ++matched;
        }
        border[index] = matched;
    }
    return border;
}

int smallestRepeatingUnit(const std::string& text) {
    const int length = static_cast<int>(text.size());
    const std::vector<int> border = computePrefixFunction(text);
    const int candidate = length - border[length - 1];
    return length % candidate == 0 ? candidate : length;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string pattern;
    std::cin >> pattern;
    std::cout << smallestRepeatingUnit(pattern) << "\n";
    return 0;
}
