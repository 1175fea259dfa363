package main

import (
	"bufio"
	"fmt"
	"os"
)

// FenwickTree supports point updates and prefix sums over positions 1..size.
type FenwickTree struct {
	size int
	tree []int64
}

// newFenwickTree builds the tree in linear time from the initial values (values[0] is unused).
func newFenwickTree(values []int64) *FenwickTree {
	size := len(values) - 1
	tree := make([]int64, size+1)
	copy(tree, values)
	for position := 1; position <= size; position++ {
		parent := position + (position & -position)
		if parent < size {
			tree[parent] += tree[position]
		}
	}
	return &FenwickTree{size: size, tree: tree}
}

func (f *FenwickTree) Add(position int, delta int64) {
	for ; position <= f.size; position += position & -position {
		f.tree[position] += delta
	}
}

func (f *FenwickTree) PrefixSum(position int) int64 {
	var total int64
	for ; position > 0; position -= position & -position {
		total += f.tree[position]
	}
	return total
}

func (f *FenwickTree) RangeSum(left, right int) int64 {
	return f.PrefixSum(right) - f.PrefixSum(left-1)
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	var accountCount, operationCount int
	fmt.Fscan(reader, &accountCount, &operationCount)
	balances := make([]int64, accountCount+1)
	for account := 1; account <= accountCount; account++ {
		fmt.Fscan(reader, &balances[account])
	}
	ledger := newFenwickTree(balances)
	for step := 0; step < operationCount; step++ {
		var kind, first int
		var second int64
		fmt.Fscan(reader, &kind, &first, &second)
		if kind == 1 {
			// Overwrite: push only the difference into the tree.
			ledger.Add(first, second-balances[first])
			balances[first] = second
		} else {
			fmt.Fprintln(writer, ledger.RangeSum(first, int(second)))
		}
	}
}
