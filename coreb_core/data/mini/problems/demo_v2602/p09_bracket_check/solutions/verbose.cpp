#include <iostream>
#include <stack>
#include <string>

namespace {

bool isOpener(char symbol) {
    return symbol == '(' || symbol == '[' || symbol == '{';
}

// True when the opener and the closer are the two halves of the same kind.
bool isMatchingPair(char opener, char closer) {
    return (opener == '(' && closer == ')') ||
           (opener == '[' && closer == ']') ||
           (opener == '{' && closer == '}');
}

bool isBalanced(const std::string& sequence) {
    std::stack<char> pendingOpeners;
    for (char symbol : sequence) {
        if (isOpener(symbol)) {
            pendingOpeners.push(symbol);
            continue;
        }
        if (pendingOpeners.empty() || !isMatchingPair(pendingOpeners.top(), symbol)) {
            return false;
        }
        pendingOpeners.pop();
    }
    return pendingOpeners.empty();
}

}  // namespace

int main() {
    std::string sequence;
    std::getline(std::cin, sequence);
    while (!sequence.empty() && (sequence.back() == '\r' || sequence.back() == ' ')) {
        sequence.pop_back();
    }
    std::cout << (isBalanced(sequence) ? "YES" : "NO") << std::endl;
    return 0;
}
