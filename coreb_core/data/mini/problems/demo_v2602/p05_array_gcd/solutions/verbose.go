package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// gcd returns the greatest common divisor using the Euclidean algorithm.
func gcd(first, second uint64) uint64 {
	for second != 0 {
		first, second = second, first%second
	}
	return first
}

func readLengths() []uint64 {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<22)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	count, _ := strconv.Atoi(scanner.Text())
	lengths := make([]uint64, 0, count)
	for len(lengths) < count && scanner.Scan() {
		value, err := strconv.ParseUint(scanner.Text(), 10, 64)
		if err != nil {
			panic(err)
		}
		lengths = append(lengths, value)
	}
	return lengths
}

func main() {
	lengths := readLengths()
	var pieceLength uint64
	for _, length := range lengths {
		pieceLength = gcd(pieceLength, length)
	}
	alreadyExact := 0
	for _, length := range lengths {
		if length == pieceLength {
			alreadyExact++
		}
	}
	fmt.Printf("%d %d\n", pieceLength, alreadyExact)
}
