#include <algorithm>
#include <iostream>
#include <vector>

struct Booking {
    long long start;
    long long finish;
};

// Returns how many bookings fit without overlap, choosing earliest finish first.
int countCompatibleBookings(std::vector<Booking> bookings) {
    std::sort(bookings.begin(), bookings.end(), [](const Booking& a, const Booking& b) {
        return a.finish < b.finish;
    });
    int approved = 0;
    long long roomFreeAt = 0;
    for (const Booking& booking : bookings) {
        if (booking.start >= roomFreeAt) {
            ++approved;
            roomFreeAt = booking.finish;
        }
    }
    return approved;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int requestCount;
    std::cin >> requestCount;
    std::vector<Booking> bookings(requestCount);
    for (Booking& booking : bookings) {
        std::cin >> booking.start >> booking.finish;
    }
    std::cout << countCompatibleBookings(bookings) << "\n";
    return 0;
}
