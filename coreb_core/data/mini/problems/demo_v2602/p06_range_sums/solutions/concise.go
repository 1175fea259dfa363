package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var n, q int
	fmt.Fscan(r, &n, &q)
	p := make([]int64, n+1)
	for i := 1; i <= n; i++ {
		var x int64
		fmt.Fscan(r, &x)
		p[i] = p[i-1] + x
	}
	for ; q > 0; q-- {
		var l, h int
		fmt.Fscan(r, &l, &h)
		fmt.Fprintln(w, p[h]-p[l-1])
	}
}
