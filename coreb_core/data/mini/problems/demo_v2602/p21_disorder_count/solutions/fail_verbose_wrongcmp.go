package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// mergeCount sorts values in place and returns its inversion count.
func mergeCount(values []int64, scratch []int64) int64 {
	if len(values) <= 1 {
		return 0
	}
	middle := len(values) / 2
	inversions := mergeCount(values[:middle], scratch[:middle]) + mergeCount(values[middle:], scratch[middle:])
	left, right, target := 0, middle, 0
	for left < middle && right < len(values) {
		if values[left] < values[right] {
			scratch[target] = values[left]
			left++
		} else {
			// values[left:middle] all exceed values[right]
			inversions += int64(middle - left)
			scratch[target] = values[right]
			right++
		}
		target++
	}
	target += copy(scratch[target:], values[left:middle])
	copy(scratch[target:], values[right:])
	copy(values, scratch[:len(values)])
	return inversions
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<22)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	count, _ := strconv.Atoi(scanner.Text())
	years := make([]int64, count)
	for i := range years {
		scanner.Scan()
		years[i], _ = strconv.ParseInt(scanner.Text(), 10, 64)
	}
	fmt.Println(mergeCount(years, make([]int64, count)))
}
