#include <iostream>
#include <numeric>
#include <utility>
#include <vector>

using namespace std;

// Disjoint-set union keeping the number of separate groups.
class FriendshipCircles {
public:
    explicit FriendshipCircles(int pupilCount)
        : parent(pupilCount + 1), rank(pupilCount + 1, 0), circleCount(pupilCount) {
        iota(parent.begin(), parent.end(), 0);
    }

    int findRoot(int pupil) {
        while (parent[pupil] != pupil) {
            parent[pupil] = parent[parent[pupil]];  // path halving
            pupil = parent[pupil];
        }
        return pupil;
    }

    void befriend(int first, int second) {
        int firstRoot = findRoot(first);
        int secondRoot = findRoot(second);
        if (firstRoot == secondRoot) {
            return;  // already in the same circle
        }
        if (rank[firstRoot] < rank[secondRoot]) {
            swap(firstRoot, secondRoot);
        }
        parent[secondRoot] = firstRoot;
        if (rank[firstRoot] == rank[secondRoot]) {
            rank[firstRoot]++;
        }
        circleCount--;
    }

    int circles() const { return circleCount; }

private:
    vector<int> parent;
    vector<int> rank;
    int circleCount;
};

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int pupilCount, entryCount;
    cin >> pupilCount >> entryCount;
    FriendshipCircles circles(pupilCount);
    for (int entry = 0; entry < entryCount; entry++) {
        int first, second;
        cin >> first >> second;
        circles.befriend(first, second);
        cout << circles.circles() << '\n';
    }
    return 0;
}
