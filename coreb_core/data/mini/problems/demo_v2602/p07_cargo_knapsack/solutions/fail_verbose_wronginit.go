package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
)

// crate is one item that may be loaded at most once.
type crate struct {
	weight int
	value  int64
}

func readInput() (int, []crate) {
	reader := bufio.NewReader(os.Stdin)
	var crateCount, capacity int
	fmt.Fscan(reader, &crateCount, &capacity)
	crates := make([]crate, crateCount)
	for i := range crates {
		fmt.Fscan(reader, &crates[i].weight, &crates[i].value)
	}
	return capacity, crates
}

// bestLoadValue returns the largest value of a subset with total weight <= capacity.
func bestLoadValue(capacity int, crates []crate) int64 {
	// bestAtLoad[c]: best value with total weight exactly c (unreachable loads start very low)
	bestAtLoad := make([]int64, capacity+1)
	for c := 1; c <= capacity; c++ {
		bestAtLoad[c] = math.MinInt64 / 2
	}
	for _, item := range crates {
		for load := capacity; load >= item.weight; load-- {
			candidate := bestAtLoad[load-item.weight] + item.value
			if candidate > bestAtLoad[load] {
				bestAtLoad[load] = candidate
			}
		}
	}
	return bestAtLoad[capacity]
}

func main() {
	capacity, crates := readInput()
	fmt.Println(bestLoadValue(capacity, crates))
}
