package main

import (
	"bufio"
	"fmt"
	"os"
)

// minOfThree returns the smallest of three integers.
func minOfThree(a, b, c int) int {
	smallest := a
	if b < smallest {
		smallest = b
	}
	if c < smallest {
		smallest = c
	}
	return smallest
}

// editDistance fills a full table where table[i][j] is the fewest keystrokes
// (insert, delete or overwrite one letter) turning received[:i] into intended[:j].
func editDistance(received, intended string) int {
	rows, cols := len(received), len(intended)
	table := make([][]int, rows+1)
	for i := range table {
		table[i] = make([]int, cols+1)
		table[i][0] = i
	}
	for j := 0; j <= cols; j++ {
		table[0][j] = j
	}
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			overwriteCost := 1
			if received[i-1] == intended[j-1] {
				overwriteCost = 0
			}
			table[i][j] = minOfThree(
				table[i-1][j]+1,
				table[i][j-1]+1,
				table[i-1][j-1]+overwriteCost,
			)
		}
	}
	return table[rows][cols]
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var received, intended string
	fmt.Fscan(reader, &received, &intended)
	fmt.Println(editDistance(received, intended))
}
