package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// sparseTable answers range-maximum queries in O(1) after O(n log n) preprocessing.
type sparseTable struct {
	levels [][]int64
	logs   []int
}

func newSparseTable(values []int64) *sparseTable {
	count := len(values)
	logs := make([]int, count+1)
	for i := 2; i <= count; i++ {
		logs[i] = logs[i/2] + 1
	}
	table := [][]int64{append([]int64(nil), values...)}
	for power := 1; (1 << power) <= count; power++ {
		previous := table[power-1]
		span := 1 << power
		current := make([]int64, count-span+1)
		for start := range current {
			current[start] = maxInt64(previous[start], previous[start+span/2])
		}
		table = append(table, current)
	}
	return &sparseTable{levels: table, logs: logs}
}

// rangeMax returns the maximum of values[left..right] inclusive.
func (t *sparseTable) rangeMax(left, right int) int64 {
	power := t.logs[right-left+1]
	return maxInt64(t.levels[power][left], t.levels[power][right-(1<<power)+1])
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var readingCount, windowWidth int
	fmt.Fscan(reader, &readingCount, &windowWidth)
	readings := make([]int64, readingCount)
	for i := range readings {
		fmt.Fscan(reader, &readings[i])
	}

	table := newSparseTable(readings)
	peaks := make([]string, 0, readingCount-windowWidth+1)
	for start := 0; start+windowWidth <= readingCount; start++ {
		peak := table.rangeMax(start, start+windowWidth-1)
		peaks = append(peaks, strconv.FormatInt(peak, 10))
	}
	fmt.Println(strings.Join(peaks, " "))
}
