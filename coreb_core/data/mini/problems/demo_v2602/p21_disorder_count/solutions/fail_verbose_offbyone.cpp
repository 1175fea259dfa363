#include <iostream>
#include <vector>

using namespace std;

// Sorts values[lo..hi] (inclusive) and returns the number of inversions inside that range.
long long sortAndCount(vector<long long>& values, vector<long long>& buffer, int lo, int hi) {
    if (lo >= hi) {
        return 0;
    }
    int mid = lo + (hi - lo) / 2;
    long long inversions = sortAndCount(values, buffer, lo, mid) + sortAndCount(values, buffer, mid + 1, hi);
    int i = lo;
    int j = mid + 1;
    int write = lo;
    while (i <= mid && j <= hi) {
        if (values[i] <= values[j]) {
            buffer[write++] = values[i++];
        } else {
            // values[i..mid] are all greater than values[j]
            inversions += mid - i;
            buffer[write++] = values[j++];
        }
    }
    while (i <= mid) buffer[write++] = values[i++];
    while (j <= hi) buffer[write++] = values[j++];
    for (int k = lo; k <= hi; k++) {
        values[k] = buffer[k];
    }
    return inversions;
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int count;
    cin >> count;
    vector<long long> years(count);
    for (long long& year : years) {
        cin >> year;
    }
    vector<long long> buffer(count);
    cout << sortAndCount(years, buffer, 0, count - 1) << "\n";
    return 0;
}
