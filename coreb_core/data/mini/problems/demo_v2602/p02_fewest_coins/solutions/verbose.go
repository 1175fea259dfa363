package main

import (
	"bufio"
	"fmt"
	"os"
)

const unreachable = -1

// minTokens fills a table where table[a] is the fewest tokens summing to a,
// or unreachable when no combination exists.
func minTokens(target int, denominations []int) int {
	table := make([]int, target+1)
	for amount := 1; amount <= target; amount++ {
		table[amount] = unreachable
		for _, value := range denominations {
			if value > amount || table[amount-value] == unreachable {
				continue
			}
			candidate := table[amount-value] + 1
			if table[amount] == unreachable || candidate < table[amount] {
				table[amount] = candidate
			}
		}
	}
	return table[target]
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var denominationCount, target int
	fmt.Fscan(reader, &denominationCount, &target)
	denominations := make([]int, denominationCount)
	for i := range denominations {
		fmt.Fscan(reader, &denominations[i])
	}
	fmt.Println(minTokens(target, denominations))
}
