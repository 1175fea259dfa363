import sys

OPENER_FOR_CLOSER = {")": "(", "]": "[", "}": "{"}


def is_balanced(sequence):
    """Return True when every bracket is closed by its own kind in the right order."""
    pending_openers = []
    for symbol in sequence:
        if symbol in OPENER_FOR_CLOSER:
            if not pending_openers:
                return False  # a closer with nothing left to close
            if pending_openers[-1] != OPENER_FOR_CLOSER[symbol]:
                return False  # wrong kind of bracket
            pending_openers.pop()
        else:
            pending_openers.append(symbol)
    # any opener still waiting means the sequence is unfinished
    return len(pending_openers) == 0


def main():
    sequence = sys.stdin.readline().strip()
    print("YES" if is_balanced(sequence) else "NO")


if __name__ == "__main__":
    main()
