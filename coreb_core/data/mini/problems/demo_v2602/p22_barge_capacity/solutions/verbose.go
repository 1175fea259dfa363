package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
)

// shipsInTime reports whether a barge of the given capacity ships all packages within dayLimit days.
func shipsInTime(weights []int64, capacity int64, dayLimit int) bool {
	daysUsed := 1
	var loadToday int64
	for _, weight := range weights {
		if weight > capacity {
			return false
		}
		if loadToday+weight > capacity {
			daysUsed++
			loadToday = 0
		}
		loadToday += weight
	}
	return daysUsed <= dayLimit
}

// smallestCapacity searches the first capacity in [0, total] for which shipping works.
func smallestCapacity(weights []int64, dayLimit int) int64 {
	var total int64
	for _, weight := range weights {
		total += weight
	}
	offset := sort.Search(int(total), func(capacity int) bool {
		return shipsInTime(weights, int64(capacity), dayLimit)
	})
	return int64(offset)
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<22)
	scanner.Split(bufio.ScanWords)
	nextInt := func() int64 {
		scanner.Scan()
		value, _ := strconv.ParseInt(scanner.Text(), 10, 64)
		return value
	}
	packageCount := int(nextInt())
	dayLimit := int(nextInt())
	weights := make([]int64, packageCount)
	for i := range weights {
		weights[i] = nextInt()
	}
	fmt.Println(smallestCapacity(weights, dayLimit))
}
