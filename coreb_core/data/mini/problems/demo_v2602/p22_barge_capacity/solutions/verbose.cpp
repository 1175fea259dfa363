#include <algorithm>
#include <iostream>
#include <numeric>
#include <vector>

using namespace std;

// Can every package be shipped within dayLimit days with the given capacity?
bool fitsWithinDays(const vector<long long>& weights, long long capacity, int dayLimit) {
    int daysUsed = 1;
    long long loadToday = 0;
    for (long long weight : weights) {
        if (weight > capacity) {
            return false;
        }
        if (loadToday + weight > capacity) {
            daysUsed++;
            loadToday = 0;
        }
        loadToday += weight;
    }
    return daysUsed <= dayLimit;
}

long long findSmallestCapacity(const vector<long long>& weights, int dayLimit) {
    long long low = *max_element(weights.begin(), weights.end());
    long long high = accumulate(weights.begin(), weights.end(), 0LL);
    long long best = high;
    // classic binary search keeping the best feasible capacity seen so far
    while (low <= high) {
        long long middle = low + (high - low) / 2;
        if (fitsWithinDays(weights, middle, dayLimit)) {
            best = middle;
            high = middle - 1;
        } else {
            low = middle + 1;
        }
    }
    return best;
}

int main() {
    int packageCount, dayLimit;
    cin >> packageCount >> dayLimit;
    vector<long long> weights(packageCount);
    for (long long& weight : weights) {
        cin >> weight;
    }
    cout << findSmallestCapacity(weights, dayLimit) << endl;
    return 0;
}
