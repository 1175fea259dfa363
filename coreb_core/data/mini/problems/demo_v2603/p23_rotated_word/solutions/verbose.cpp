#include <iostream>
#include <string>
#include <vector>

// Z-function: z[i] is the length of the longest common prefix of text and text.substr(i).
static std::vector<int> zFunction(const std::string& text) {
    const int length = static_cast<int>(text.size());
    std::vector<int> z(length, 0);
    int left = 0, right = 0;
    for (int i = 1; i < length; ++i) {
        if (i < right) {
            z[i] = std::min(right - i, z[i - left]);
        }
        while (i + z[i] < length && text[z[i]] == text[i + z[i]]) {
            ++z[i];
        }
        if (i + z[i] > right) {
            left = i;
            right = i + z[i];
        }
    }
    return z;
}

// Returns the smallest rotation amount turning `word` into `target`, or -1.
static int smallestShift(const std::string& word, const std::string& target) {
    if (word.size() != target.size()) {
        return -1;
    }
    const int length = static_cast<int>(word.size());
    const std::string combined = target + '\x01' + word + word;
    const std::vector<int> z = zFunction(combined);
    for (int shift = 0; shift < length; ++shift) {
        if (z[length + 1 + shift] >= length) {
            return shift;
        }
    }
    return -1;
}

int main() {
    std::string word, target;
    std::cin >> word >> target;
    const int shift = smallestShift(word, target);
    if (shift < 0) {
        std::cout << "NO\n";
    } else {
        std::cout << "YES\n" << shift << "\n";
    }
    return 0;
}
