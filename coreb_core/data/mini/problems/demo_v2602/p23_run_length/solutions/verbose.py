import sys


def run_length_encode(message):
    """Encode every maximal block of equal letters as letter + block length."""
    if not message:
        return ""
    pieces = []
    current_letter = message[0]
    run_length = 1
    for letter in message[1:]:
        if letter == current_letter:
            run_length += 1
        else:
            pieces.append(f"{current_letter}{run_length}")
            current_letter = letter
            run_length = 1
    # the last run is still open when the loop ends
    pieces.append(f"{current_letter}{run_length}")
    return "".join(pieces)


def main():
    message = sys.stdin.readline().strip()
    print(run_length_encode(message))


if __name__ == "__main__":
    main()
