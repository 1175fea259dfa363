package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// longestDistinctRun returns the length of the longest block of consecutive
// bytes in which no byte value appears twice.
func longestDistinctRun(row string) int {
	inWindow := make(map[byte]bool)
	left, best := 0, 0
	for right := 0; right < len(row); right++ {
		for inWindow[row[right]] {
			delete(inWindow, row[left])
			left++
		}
		inWindow[row[right]] = true
		if length := right - left + 1; length > best {
			best = length
		}
	}
	return best
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	line, _ := reader.ReadString('\n')
	row := strings.TrimSpace(line)
	fmt.Println(longestDistinctRun(row))
}
