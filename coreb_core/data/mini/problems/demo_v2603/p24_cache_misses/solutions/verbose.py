import sys


class _Node:
    __slots__ = ("key", "prev", "next")

    def __init__(self, key):
        self.key = key
        self.prev = None
        self.next = None


class RecentlyUsedShelf:
    """Fixed-capacity store that evicts the least recently used key.

    A dictionary maps keys to nodes of a doubly linked list ordered from
    least recently used (after the head sentinel) to most recently used.
    """

    def __init__(self, capacity):
        self.capacity = capacity
        self.nodes = {}
        self.head = _Node(None)
        self.tail = _Node(None)
        self.head.next = self.tail
        self.tail.prev = self.head

    def _unlink(self, node):
        node.prev.next = node.next
        node.next.prev = node.prev

    def _append(self, node):
        node.prev = self.tail.prev
        node.next = self.tail
        self.tail.prev.next = node
        self.tail.prev = node

    def request(self, key):
        """Touch key; return True when it had to be fetched (a miss)."""
        node = self.nodes.get(key)
        if node is not None:
            self._unlink(node)
            self._append(node)
            return False
        node = _Node(key)
        self.nodes[key] = node
        self._append(node)
        if len(self.nodes) > self.capacity:
            oldest = self.head.next
            self._unlink(oldest)
            del self.nodes[oldest.key]
        return True


def main():
    tokens = sys.stdin.read().split()
    capacity, request_count = int(tokens[0]), int(tokens[1])
    shelf = RecentlyUsedShelf(capacity)
    trips = 0
    for key in tokens[2:2 + request_count]:
        if shelf.request(key):
            trips += 1
    print(trips)


if __name__ == "__main__":
    main()
