import sys


class DisjointSetUnion:
    """Union-find with path compression and union by size."""

    def __init__(self, element_count):
        self.parent = list(range(element_count + 1))  # elements are numbered from 1
        self.size = [1] * (element_count + 1)
        self.group_count = element_count

    def find(self, element):
        root = element
        while self.parent[root] != root:
            root = self.parent[root]
        # second pass: point every node on the path straight at the root
        while self.parent[element] != root:
            next_element = self.parent[element]
            self.parent[element] = root
            element = next_element
        return root

    def union(self, first, second):
        first_root, second_root = self.find(first), self.find(second)
        if first_root == second_root:
            return
        if self.size[first_root] < self.size[second_root]:
            first_root, second_root = second_root, first_root
        self.parent[second_root] = first_root
        self.size[first_root] += self.size[second_root]
        self.group_count -= 1


def main():
    tokens = sys.stdin.read().split()
    pupil_count, entry_count = int(tokens[0]), int(tokens[1])
    circles = DisjointSetUnion(pupil_count)
    report = []
    for entry in range(entry_count):
        first = int(tokens[2 + 2 * entry])
        second = int(tokens[3 + 2 * entry])
        circles.union(first, second)
        report.append(str(circles.group_count))
    sys.stdout.write("\n".join(report) + "\n")


main()
