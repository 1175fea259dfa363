import sys
from collections import deque

UNASSIGNED = -1


def read_rivalries():
    data = sys.stdin.read().split()
    camper_count, rivalry_count = int(data[0]), int(data[1])
    rivals = [[] for _ in range(camper_count + 1)]
    for index in range(rivalry_count):
        first = int(data[2 + 2 * index])
        second = int(data[3 + 2 * index])
        rivals[first].append(second)
        rivals[second].append(first)
    return camper_count, rivals


def split_component(start, rivals, team):
    """Breadth-first colouring of one group of connected campers.

    Returns False as soon as two rivals are forced onto the same team.
    """
    team[start] = 0
    pending = deque([start])
    while pending:
        camper = pending.popleft()
        for rival in rivals[camper]:
            if team[rival] == UNASSIGNED:
                team[rival] = 1 - team[camper]
                pending.append(rival)
            elif team[rival] == team[camper]:
                return False
    return True


def can_split_into_two_sides(camper_count, rivals):
    team = [UNASSIGNED] * (camper_count + 1)
    for camper in range(1, camper_count + 1):
        # every separate friend group must be checked on its own
        if team[camper] == UNASSIGNED and not split_component(camper, rivals, team):
            return False
    return True


def main():
    camper_count, rivals = read_rivalries()
    print("YES" if can_split_into_two_sides(camper_count, rivals) else "NO")


if __name__ == "__main__":
    main()
