package main

import (
	"bufio"
	"fmt"
	"os"
)

// maxInt returns the larger of two integers.
func maxInt(x, y int) int {
	if x > y {
		return x
	}
	return y
}

// longestCommonSubsequence fills a full table where table[i][j] describes prefixes of length i and j.
func longestCommonSubsequence(first, second string) int {
	rows, cols := len(first), len(second)
	table := make([][]int, rows+1)
	for i := range table {
		table[i] = make([]int, cols+1)
	}
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			if first[i-1] == second[j-1] {
				table[i][j] = table[i-1][j-1] + 1
			} else {
				table[i][j] = maxInt(table[i-1][j], table[i][j-1])
			}
		}
	}
	return table[rows][cols]
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var firstCopy, secondCopy string
	fmt.Fscan(reader, &firstCopy, &secondCopy)
	fmt.Println(longestCommonSubsequence(firstCopy, secondCopy))
}
