package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// readInts reads count integers from the scanner.
func readInts(scanner *bufio.Scanner, count int) []int64 {
	values := make([]int64, count)
	for i := 0; i < count; i++ {
		scanner.Scan()
		values[i], _ = strconv.ParseInt(scanner.Text(), 10, 64)
	}
	return values
}

// firstValidStart returns the smallest 1-based start index or -1.
func firstValidStart(fuel, cost []int64) int {
	var balance, lowest int64
	best := 0
	for station := range fuel {
		// balance currently holds the net fuel collected before this station
		if balance < lowest {
			lowest = balance
			best = station
		}
		balance += fuel[station] - cost[station]
	}
	if balance < 0 {
		return -1
	}
	return best + 1
}

func main() {
	scanner := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<20))
	scanner.Buffer(make([]byte, 1<<20), 1<<25)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	stationCount, _ := strconv.Atoi(scanner.Text())
	fuel := readInts(scanner, stationCount)
	cost := readInts(scanner, stationCount)
	fmt.Println(firstValidStart(fuel, cost))
}
