package main

import (
	"fmt"
)

const modulus int64 = 1_000_000_007

type matrix [2][2]int64

// multiply returns left*right with every entry reduced modulo the modulus.
func multiply(left, right matrix) matrix {
	var product matrix
	for row := 0; row < 2; row++ {
		for col := 0; col < 2; col++ {
			var sum int64
			for mid := 0; mid < 2; mid++ {
				sum = (sum + left[row][mid]*right[mid][col]) % modulus
			}
			product[row][col] = sum
		}
	}
	return product
}

// power computes base^exponent by binary exponentiation.
func power(base matrix, exponent int64) matrix {
	result := matrix{{1, 0}, {0, 1}}
	for exponent > 0 {
		if exponent&1 == 1 {
			result = multiply(result, base)
		}
		base = multiply(base, base)
		exponent >>= 1
	}
	return result
}

func main() {
	var month int64
	if _, err := fmt.Scan(&month); err != nil {
		return
	}
	step := matrix{{1, 1}, {1, 0}}
	// The off-diagonal entry of step^month is the month-th Fibonacci number.
	fmt.Println(power(step, month)[0][1])
}
