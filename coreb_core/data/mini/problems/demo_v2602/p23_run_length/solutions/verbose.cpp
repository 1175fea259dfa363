#include <iostream>
#include <string>

using namespace std;

// Produces letter+count pairs for each block of consecutive equal letters.
string runLengthEncode(const string& message) {
    string encoded;
    size_t position = 0;
    while (position < message.size()) {
        char letter = message[position];
        size_t runEnd = position;
        while (runEnd < message.size() && message[runEnd] == letter) {
            runEnd++;
        }
        encoded += letter;
        encoded += to_string(runEnd - position);
        position = runEnd;  // continue right after this run
    }
    return encoded;
}

int main() {
    string message;
    getline(cin, message);
    // drop trailing carriage returns or spaces, if any
    while (!message.empty() && (message.back() == '\r' || message.back() == ' ')) {
        message.pop_back();
    }
    cout << runLengthEncode(message) << endl;
    return 0;
}
