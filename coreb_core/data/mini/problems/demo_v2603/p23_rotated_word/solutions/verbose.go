package main

import (
	"bufio"
	"fmt"
	"os"
)

// failureTable computes the KMP border lengths of every prefix of pattern.
func failureTable(pattern string) []int {
	table := make([]int, len(pattern))
	border := 0
	for i := 1; i < len(pattern); i++ {
		for border > 0 && pattern[i] != pattern[border] {
			border = table[border-1]
		}
		if pattern[i] == pattern[border] {
			border++
		}
		table[i] = border
	}
	return table
}

// smallestShift returns the least k with word[k:]+word[:k] == target, or -1.
func smallestShift(word, target string) int {
	if len(word) != len(target) {
		return -1
	}
	table := failureTable(target)
	doubled := word + word
	matched := 0
	for i := 0; i < len(doubled); i++ {
		for matched > 0 && doubled[i] != target[matched] {
			matched = table[matched-1]
		}
		if doubled[i] == target[matched] {
			matched++
		}
		if matched == len(target) {
			return i - len(target) + 1
		}
	}
	return -1
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var word, target string
	fmt.Fscan(reader, &word, &target)
	if shift := smallestShift(word, target); shift >= 0 {
		fmt.Println("YES")
		fmt.Println(shift)
	} else {
		fmt.Println("NO")
	}
}
