#include <iostream>
#include <unordered_map>
#include <vector>

using namespace std;

// Builds a value -> occurrence table for the given prices.
unordered_map<long long, long long> buildFrequencyTable(const vector<long long>& prices) {
    unordered_map<long long, long long> frequency;
    for (long long price : prices) {
        frequency[price]++;
    }
    return frequency;
}

// Counts pairs of positions whose prices sum to the target.
long long countMatchingPairs(const vector<long long>& prices, int targetSum) {
    unordered_map<long long, long long> frequency = buildFrequencyTable(prices);
    long long pairCount = 0;
    for (const auto& entry : frequency) {
        long long value = entry.first;
        long long occurrences = entry.second;
        long long complement = targetSum - value;
        if (value < complement) {
            auto found = frequency.find(complement);
            if (found != frequency.end()) {
                pairCount += occurrences * found->second;
            }
        } else if (value == complement) {
            pairCount += occurrences * (occurrences - 1) / 2;
        }
    }
    return pairCount;
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int itemCount;
    int targetSum;
    cin >> itemCount >> targetSum;
    vector<long long> prices(itemCount);
    for (int i = 0; i < itemCount; i++) {
        cin >> prices[i];
    }
    cout << countMatchingPairs(prices, targetSum) << "\n";
    return 0;
}
