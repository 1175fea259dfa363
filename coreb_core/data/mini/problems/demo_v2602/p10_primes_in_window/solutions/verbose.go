package main

import (
	"bufio"
	"fmt"
	"os"
)

// sieveComposites marks composite numbers (and 0, 1) up to limit inclusive.
func sieveComposites(limit int) []bool {
	composite := make([]bool, limit+1)
	composite[0] = true
	if limit >= 1 {
		composite[1] = true
	}
	for factor := 2; factor*factor <= limit; factor++ {
		if composite[factor] {
			continue
		}
		for multiple := factor * factor; multiple <= limit; multiple += factor {
			composite[multiple] = true
		}
	}
	return composite
}

// primePrefixCounts returns counts[k] = number of primes in [1, k].
func primePrefixCounts(limit int) []int {
	composite := sieveComposites(limit)
	counts := make([]int, limit+1)
	for value := 1; value <= limit; value++ {
		counts[value] = counts[value-1]
		if !composite[value] {
			counts[value]++
		}
	}
	return counts
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var low, high int
	fmt.Fscan(reader, &low, &high)
	counts := primePrefixCounts(high)
	fmt.Println(counts[high] - counts[low-1])
}
