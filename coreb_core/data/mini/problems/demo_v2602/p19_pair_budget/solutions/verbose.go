package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// readInt64 scans the next whitespace-separated token as a 64-bit integer.
func readInt64(scanner *bufio.Scanner) int64 {
	scanner.Scan()
	value, err := strconv.ParseInt(scanner.Text(), 10, 64)
	if err != nil {
		panic(err)
	}
	return value
}

// countPairsWithSum returns how many index pairs i < j satisfy prices[i] + prices[j] == target.
func countPairsWithSum(prices []int64, target int64) int64 {
	frequency := make(map[int64]int64, len(prices))
	for _, price := range prices {
		frequency[price]++
	}
	var pairCount int64
	for value, occurrences := range frequency {
		complement := target - value
		switch {
		case value < complement:
			pairCount += occurrences * frequency[complement]
		case value == complement:
			// two different positions holding the same price
			pairCount += occurrences * (occurrences - 1) / 2
		}
	}
	return pairCount
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1024*1024), 1024*1024)
	scanner.Split(bufio.ScanWords)
	itemCount := int(readInt64(scanner))
	targetSum := readInt64(scanner)
	prices := make([]int64, itemCount)
	for i := range prices {
		prices[i] = readInt64(scanner)
	}
	fmt.Println(countPairsWithSum(prices, targetSum))
}
