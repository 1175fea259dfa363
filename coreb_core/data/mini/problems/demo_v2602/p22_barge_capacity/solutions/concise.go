package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	rd := bufio.NewReader(os.Stdin)
	var n, D int
	fmt.Fscan(rd, &n, &D)
	w := make([]int64, n)
	var lo, hi int64
	for i := range w {
		fmt.Fscan(rd, &w[i])
		if w[i] > lo {
			lo = w[i]
		}
		hi += w[i]
	}
	ok := func(c int64) bool {
		d, s := 1, int64(0)
		for _, x := range w {
			if s+x > c {
				d++
				s = 0
			}
			s += x
		}
		return d <= D
	}
	for lo < hi {
		m := (lo + hi) / 2
		if ok(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	fmt.Println(lo)
}
