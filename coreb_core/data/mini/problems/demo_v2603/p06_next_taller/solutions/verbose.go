package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// firstTallerToTheEast scans from the right end with a stack of strictly decreasing heights.
func firstTallerToTheEast(heights []int64) []int64 {
	answer := make([]int64, len(heights))
	stack := make([]int64, 0, len(heights))
	for index := len(heights) - 1; index >= 0; index-- {
		current := heights[index]
		for len(stack) > 0 && stack[len(stack)-1] <= current {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			answer[index] = -1
		} else {
			answer[index] = stack[len(stack)-1]
		}
		stack = append(stack, current)
	}
	return answer
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	count, _ := strconv.Atoi(scanner.Text())
	heights := make([]int64, count)
	for i := range heights {
		scanner.Scan()
		heights[i], _ = strconv.ParseInt(scanner.Text(), 10, 64)
	}
	parts := make([]string, count)
	for i, value := range firstTallerToTheEast(heights) {
		parts[i] = strconv.FormatInt(value, 10)
	}
	fmt.Println(strings.Join(parts, " "))
}
