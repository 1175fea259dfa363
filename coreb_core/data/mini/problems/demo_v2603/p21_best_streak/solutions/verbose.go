package main

import (
	"bufio"
	"fmt"
	"os"
)

// readProfits reads the count followed by that many 64-bit values.
func readProfits(reader *bufio.Reader) []int64 {
	var dayCount int
	fmt.Fscan(reader, &dayCount)
	profits := make([]int64, dayCount)
	for day := range profits {
		fmt.Fscan(reader, &profits[day])
	}
	return profits
}

// largestRunTotal subtracts the smallest earlier prefix sum from each prefix sum.
func largestRunTotal(profits []int64) int64 {
	var prefixSum, smallestPrefix int64
	bestTotal := profits[0]
	for _, profit := range profits {
		prefixSum += profit
		if candidate := prefixSum - smallestPrefix; candidate > bestTotal {
			bestTotal = candidate
		}
		if prefixSum < smallestPrefix {
			smallestPrefix = prefixSum
		}
	}
	return bestTotal
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	profits := readProfits(reader)
	fmt.Println(largestRunTotal(profits))
}
