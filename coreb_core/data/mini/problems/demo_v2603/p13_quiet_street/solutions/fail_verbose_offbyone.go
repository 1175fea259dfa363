package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// readInts returns every whitespace-separated integer on standard input.
func readInts() []int64 {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	scanner.Split(bufio.ScanWords)
	var numbers []int64
	for scanner.Scan() {
		value, err := strconv.ParseInt(scanner.Text(), 10, 64)
		if err == nil {
			numbers = append(numbers, value)
		}
	}
	return numbers
}

// bestNonAdjacent fills a table where best[i] is the answer for the first i houses.
func bestNonAdjacent(pledges []int64) int64 {
	best := make([]int64, len(pledges)+1)
	for i := 1; i <= len(pledges); i++ {
		skip := best[i-1]
		take := pledges[i-1]
		if i >= 2 {
			take += best[i-2]
		}
		if take > skip {
			best[i] = take
		} else {
			best[i] = skip
		}
	}
	return best[len(pledges)-1]
}

func main() {
	numbers := readInts()
	houseCount := int(numbers[0])
	pledges := numbers[1 : 1+houseCount]
	fmt.Println(bestNonAdjacent(pledges))
}
