package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
)

// interval is a half-open booking [start, end).
type interval struct {
	start int64
	end   int64
}

func readIntervals(scanner *bufio.Scanner) []interval {
	nextInt := func() int64 {
		scanner.Scan()
		value, _ := strconv.ParseInt(scanner.Text(), 10, 64)
		return value
	}
	count := int(nextInt())
	intervals := make([]interval, count)
	for i := range intervals {
		intervals[i].start = nextInt()
		intervals[i].end = nextInt()
	}
	return intervals
}

// selectMaximum keeps every interval that starts after the previously kept one finished,
// scanning in order of increasing end time.
func selectMaximum(intervals []interval) int {
	sort.Slice(intervals, func(i, j int) bool {
		return intervals[i].end < intervals[j].end
	})
	selected := 0
	var busyUntil int64 = -1
	for _, current := range intervals {
		if current.start >= busyUntil {
			selected++
			busyUntil = current.end
		}
	}
	return selected
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	scanner.Split(bufio.ScanWords)
	intervals := readIntervals(scanner)
	fmt.Println(selectMaximum(intervals))
}
