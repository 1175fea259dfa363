#include <iostream>
#include <vector>

using namespace std;

// Returns the fewest leaps from stone 0 to the last stone, or -1 when it cannot be reached.
int fewestLeaps(const vector<long long>& leapLimits) {
    int stoneCount = static_cast<int>(leapLimits.size());
    int leaps = 0;
    int windowStart = 0;
    long long windowEnd = 0;  // last stone reachable with `leaps` leaps
    while (windowEnd < stoneCount - 1) {
        long long farthest = windowEnd;
        for (long long stone = windowStart; stone <= windowEnd; stone++) {
            farthest = max(farthest, stone + leapLimits[stone]);
        }
        if (farthest == windowEnd) {
            return -1;  // stuck: no stone of this window leaps any further
        }
        windowStart = static_cast<int>(windowEnd) + 1;
        windowEnd = farthest;
        leaps++;
    }
    return leaps;
}

int main() {
    int stoneCount;
    cin >> stoneCount;
    vector<long long> leapLimits(stoneCount);
    for (long long& limit : leapLimits) {
        cin >> limit;
    }
    cout << fewestLeaps(leapLimits) << endl;
    return 0;
}
