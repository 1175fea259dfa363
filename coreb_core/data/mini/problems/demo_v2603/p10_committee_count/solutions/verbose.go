package main

import (
	"bufio"
	"fmt"
	"os"
)

const modulus int64 = 1_000_000_007

// BinomialTable stores factorials and inverse factorials modulo a prime.
type BinomialTable struct {
	factorial        []int64
	inverseFactorial []int64
}

// newBinomialTable uses the recurrence inv(i) = -(m / i) * inv(m mod i) for modular inverses.
func newBinomialTable(limit int) *BinomialTable {
	table := &BinomialTable{
		factorial:        make([]int64, limit+2),
		inverseFactorial: make([]int64, limit+2),
	}
	inverse := make([]int64, limit+2)
	inverse[1] = 1
	table.factorial[0], table.inverseFactorial[0] = 1, 1
	for value := 1; value <= limit+1; value++ {
		if value > 1 {
			m := int64(value)
			inverse[value] = (modulus - (modulus/m)*inverse[modulus%m]%modulus) % modulus
		}
		table.factorial[value] = table.factorial[value-1] * int64(value) % modulus
		table.inverseFactorial[value] = table.inverseFactorial[value-1] * inverse[value] % modulus
	}
	return table
}

// Choose returns C(n, k) modulo the prime, or 0 when k is out of range.
func (t *BinomialTable) Choose(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	return t.factorial[n] * t.inverseFactorial[k] % modulus * t.inverseFactorial[n-k] % modulus
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	var queryCount int
	fmt.Fscan(reader, &queryCount)
	sizes := make([]int, queryCount)
	picks := make([]int, queryCount)
	largest := 0
	for i := 0; i < queryCount; i++ {
		fmt.Fscan(reader, &sizes[i], &picks[i])
		if sizes[i] > largest {
			largest = sizes[i]
		}
	}
	table := newBinomialTable(largest)
	for i := 0; i < queryCount; i++ {
		fmt.Fprintln(writer, table.Choose(sizes[i], picks[i]))
	}
}
