package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// readHeights parses the count followed by that many heights.
func readHeights() []int64 {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1024*1024), 1024*1024*16)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	count, _ := strconv.Atoi(scanner.Text())
	heights := make([]int64, count)
	for i := 0; i < count; i++ {
		scanner.Scan()
		value, _ := strconv.ParseInt(scanner.Text(), 10, 64)
		heights[i] = value
	}
	return heights
}

// lowerBound returns the first index whose value is not smaller than target.
func lowerBound(sortedTops []int64, target int64) int {
	low, high := 0, len(sortedTops)
	for low < high {
		middle := (low + high) / 2
		if sortedTops[middle] < target {
			low = middle + 1
		} else {
			high = middle
		}
	}
	return low
}

// longestRisingLength keeps, for each chain length, the smallest possible last height.
func longestRisingLength(heights []int64) int {
	smallestTail := make([]int64, 0, len(heights))
	for _, height := range heights {
		position := lowerBound(smallestTail, height)
		if position == len(smallestTail) {
			smallestTail = append(smallestTail, height)
		} else {
			smallestTail[position] = height
		}
	}
	return len(smallestTail)
}

func main() {
	heights := readHeights()
	fmt.Println(longestRisingLength(heights))
}
