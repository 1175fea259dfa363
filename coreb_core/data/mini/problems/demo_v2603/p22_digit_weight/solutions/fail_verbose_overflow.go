package main

import (
	"bufio"
	"fmt"
	"os"
)

// largestPowerNotAbove returns the biggest power of base that is <= value (1 for value < base).
func largestPowerNotAbove(value, base int64) int64 {
	power := int64(1)
	for power*base <= value {
		power *= base
	}
	return power
}

// digitSum adds up the digits of value in the given base, most significant first.
func digitSum(value, base int64) int64 {
	var total int64
	for power := largestPowerNotAbove(value, base); power > 0; power /= base {
		digit := value / power
		total += digit
		value %= power
	}
	return total
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var value, base int64
	fmt.Fscan(reader, &value, &base)
	fmt.Println(digitSum(value, base))
}
