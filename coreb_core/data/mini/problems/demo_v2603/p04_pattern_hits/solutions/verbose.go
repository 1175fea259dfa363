package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// prefixFunction returns, for every prefix of s, the length of its longest proper border.
func prefixFunction(s string) []int {
	border := make([]int, len(s))
	for i := 1; i < len(s); i++ {
		length := border[i-1]
		for length > 0 && s[i] != s[length] {
			length = border[length-1]
		}
		if s[i] == s[length] {
			length++
		}
		border[i] = length
	}
	return border
}

// countOccurrences runs the prefix function over pattern + separator + text.
func countOccurrences(text, pattern string) int {
	combined := pattern + "#" + text
	border := prefixFunction(combined)
	count := 0
	for position := len(pattern) + 1; position < len(combined); position++ {
		if border[position] == len(pattern) {
			count++
		}
	}
	return count
}

func main() {
	reader := bufio.NewReaderSize(os.Stdin, 1<<20)
	text, _ := reader.ReadString('\n')
	pattern, _ := reader.ReadString('\n')
	text = strings.TrimSpace(text)
	pattern = strings.TrimSpace(pattern)
	fmt.Println(countOccurrences(text, pattern))
}
