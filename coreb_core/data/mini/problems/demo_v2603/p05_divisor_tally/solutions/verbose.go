package main

import (
	"bufio"
	"fmt"
	"os"
)

// divisorCount factorises n by trial division and multiplies (exponent + 1).
func divisorCount(n int64) int64 {
	result := int64(1)
	for p := int64(2); p*p <= n; p++ {
		exponent := int64(0)
		for n%p == 0 {
			n /= p
			exponent++
		}
		result *= exponent + 1
	}
	if n > 1 {
		// the remaining cofactor is prime
		result *= 2
	}
	return result
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var n int64
	fmt.Fscan(reader, &n)
	fmt.Println(divisorCount(n))
}
