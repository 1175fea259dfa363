#include <iostream>
#include <vector>

// Iterative depth-first colouring; avoids deep recursion on long chains of rivals.
class TeamSplitter {
public:
    explicit TeamSplitter(int camperCount)
        : rivals_(camperCount + 1), team_(camperCount + 1, kUnassigned) {}

    void addRivalry(int first, int second) {
        rivals_[first].push_back(second);
        rivals_[second].push_back(first);
    }

    bool canSplit() {
        for (int camper = 1; camper < static_cast<int>(team_.size()); ++camper) {
            if (team_[camper] == kUnassigned && !colourFrom(camper)) {
                return false;
            }
        }
        return true;
    }

private:
    static constexpr int kUnassigned = -1;

    bool colourFrom(int start) {
        std::vector<int> stack{start};
        team_[start] = 0;
        while (!stack.empty()) {
            int camper = stack.back();
            stack.pop_back();
            for (int rival : rivals_[camper]) {
                if (team_[rival] == kUnassigned) {
                    team_[rival] = 1 - team_[camper];
                    stack.push_back(rival);
                } else if (team_[rival] == team_[camper]) {
                    return false;  // two rivals would share a team
                }
            }
        }
        return true;
    }

    std::vector<std::vector<int>> rivals_;
    std::vector<int> team_;
};

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int camperCount, rivalryCount;
    std::cin >> camperCount >> rivalryCount;
    TeamSplitter splitter(camperCount);
    for (int i = 0; i < rivalryCount; ++i) {
        int first, second;
        std::cin >> first >> second;
        splitter.addRivalry(first, second);
    }
    std::cout << (splitter.canSplit() ? "YES" : "NO") << '\n';
    return 0;
}
