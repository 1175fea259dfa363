package main

import (
	"bufio"
	"fmt"
	"os"
)

const modulus int64 = 1_000_000_007

// sumOfPowers returns base^0 + base^1 + ... + base^topExponent modulo the prime.
// It uses the identity S(2m+1) = (1 + base^(m+1)) * S(m) and S(2m) = 1 + base * S(2m-1).
func sumOfPowers(base, topExponent int64) int64 {
	if topExponent == 0 {
		return 1
	}
	if topExponent%2 == 1 {
		half := sumOfPowers(base, topExponent/2)
		return (1 + modularPower(base, topExponent/2+1)) % modulus * half % modulus
	}
	return (1 + base*sumOfPowers(base, topExponent-1)) % modulus
}

// modularPower computes base^exponent modulo the prime by repeated squaring.
func modularPower(base, exponent int64) int64 {
	result := int64(1)
	base %= modulus
	for exponent > 0 {
		if exponent&1 == 1 {
			result = result * base % modulus
		}
		base = base * base % modulus
		exponent >>= 1
	}
	return result
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	var queryCount int
	fmt.Fscan(reader, &queryCount)
	for query := 0; query < queryCount; query++ {
		var base, topExponent int64
		fmt.Fscan(reader, &base, &topExponent)
		fmt.Fprintln(writer, sumOfPowers(base%modulus, topExponent))
	}
}
