import heapq
import sys


def read_dependencies():
    """Parse the task count and the list of (before, after) requirements."""
    data = sys.stdin.read().split()
    task_count, rule_count = int(data[0]), int(data[1])
    followers = [[] for _ in range(task_count + 1)]
    waiting_on = [0] * (task_count + 1)
    for index in range(rule_count):
        before = int(data[2 + 2 * index])
        after = int(data[3 + 2 * index])
        followers[before].append(after)
        waiting_on[after] += 1
    return task_count, followers, waiting_on


def smallest_schedule(task_count, followers, waiting_on):
    """Kahn's algorithm with a min-heap so the lowest-numbered ready task goes first.

    Returns None when some tasks can never become ready (a circular requirement).
    """
    ready = [task for task in range(1, task_count + 1) if waiting_on[task] == 0]
    heapq.heapify(ready)
    schedule = []
    while ready:
        task = heapq.heappop(ready)
        schedule.append(task)
        for follower in followers[task]:
            waiting_on[follower] -= 1
            if waiting_on[follower] == 0:
                heapq.heappush(ready, follower)
    if len(schedule) < task_count:
        return None
    return schedule


def main():
    task_count, followers, waiting_on = read_dependencies()
    schedule = smallest_schedule(task_count, followers, waiting_on)
    if schedule is None:
        print("IMPOSSIBLE")
    else:
        print(" ".join(str(task) for task in schedule))


if __name__ == "__main__":
    main()
