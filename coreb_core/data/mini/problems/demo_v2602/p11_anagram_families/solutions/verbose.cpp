#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

// The sorted letters of a word identify its family of anagrams.
std::string familyKey(std::string word) {
    std::sort(word.begin(), word.end());
    return word;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int wordCount;
    std::cin >> wordCount;
    std::map<std::string, int> familySize;
    for (int i = 0; i < wordCount; ++i) {
        std::string word;
        std::cin >> word;
        familySize[familyKey(word)] += 1;
    }
    int largestFamily = 0;
    for (const auto& [key, size] : familySize) {
        largestFamily = std::max(largestFamily, size);
    }
    std::cout << familySize.size() << " " << largestFamily << "\n";
    return 0;
}
