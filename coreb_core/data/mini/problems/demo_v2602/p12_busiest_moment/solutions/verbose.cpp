#include <algorithm>
#include <iostream>
#include <utility>
#include <vector>

// An opening or closing of an interval. At equal times openings (order 0) are
// handled before closings (order 1), so intervals that only touch still overlap.
struct Event {
    long long time;
    int order;  // 0 = opening, 1 = closing

    bool operator<(const Event& other) const {
        if (time != other.time) {
            return time < other.time;
        }
        return order < other.order;
    }
};

int peakOverlap(const std::vector<std::pair<long long, long long>>& intervals) {
    std::vector<Event> events;
    events.reserve(intervals.size() * 2);
    for (const auto& [start, end] : intervals) {
        events.push_back({start, 0});
        events.push_back({end, 1});
    }
    std::sort(events.begin(), events.end());
    int active = 0;
    int mostActive = 0;
    for (const Event& event : events) {
        active += (event.order == 0) ? 1 : -1;
        mostActive = std::max(mostActive, active);
    }
    return mostActive;
}

int main() {
    std::ios::sync_with_stdio(false);
    int intervalCount;
    std::cin >> intervalCount;
    std::vector<std::pair<long long, long long>> intervals(intervalCount);
    for (auto& [start, end] : intervals) {
        std::cin >> start >> end;
    }
    std::cout << peakOverlap(intervals) << "\n";
    return 0;
}
