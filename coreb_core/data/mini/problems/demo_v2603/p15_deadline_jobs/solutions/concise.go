package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	t := make([]int64, n)
	d := make([]int64, n)
	id := make([]int, n)
	for i := 0; i < n; i++ {
		fmt.Fscan(r, &t[i], &d[i])
		id[i] = i
	}
	sort.Slice(id, func(a, b int) bool { return d[id[a]] < d[id[b]] })
	var c int64
	b := int64(-1 << 62)
	for _, i := range id {
		c += t[i]
		if c-d[i] > b {
			b = c - d[i]
		}
	}
	fmt.Println(b)
}
