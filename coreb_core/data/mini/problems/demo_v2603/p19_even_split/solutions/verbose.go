package main

import (
	"bufio"
	"fmt"
	"os"
)

// readWeights reads the parcel count and then that many weights.
func readWeights(reader *bufio.Reader) []int {
	var count int
	fmt.Fscan(reader, &count)
	weights := make([]int, count)
	for index := range weights {
		fmt.Fscan(reader, &weights[index])
	}
	return weights
}

// reachableSums marks every subset sum up to limit that can be formed.
func reachableSums(weights []int, limit int) []bool {
	reachable := make([]bool, limit+1)
	reachable[0] = true
	for _, weight := range weights {
		// descending order keeps each weight single-use
		for sum := limit; sum >= weight; sum-- {
			reachable[sum] = reachable[sum] || reachable[sum-weight]
		}
	}
	return reachable
}

// canSplitEvenly reports whether two groups of equal total exist.
func canSplitEvenly(weights []int) bool {
	total := 0
	for _, weight := range weights {
		total += weight
	}
	if total%2 != 0 {
		return false
	}
	half := total / 2
	return reachableSums(weights, half)[half]
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	weights := readWeights(reader)
	if canSplitEvenly(weights) {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
