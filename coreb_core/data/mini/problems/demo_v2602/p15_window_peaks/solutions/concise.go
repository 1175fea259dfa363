package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var n, k int
	fmt.Fscan(r, &n, &k)
	a := make([]int64, n)
	for i := range a {
		fmt.Fscan(r, &a[i])
	}
	q := make([]int, 0, n)
	h := 0
	for i := 0; i < n; i++ {
		for len(q) > h && a[q[len(q)-1]] <= a[i] {
			q = q[:len(q)-1]
		}
		q = append(q, i)
		if q[h] <= i-k {
			h++
		}
		if i >= k-1 {
			if i >= k {
				w.WriteByte(' ')
			}
			w.WriteString(strconv.FormatInt(a[q[h]], 10))
		}
	}
	w.WriteByte('\n')
}
