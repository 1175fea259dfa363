package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	g := make([]int64, n)
	for i := range g {
		fmt.Fscan(r, &g[i])
	}
	var t, s int64
	st := 0
	for i := 0; i < n; i++ {
		var c int64
		fmt.Fscan(r, &c)
		x := g[i] - c
		t += x
		s += x
		if s < 0 {
			s, st = 0, i+1
		}
	}
	if t < 0 {
		fmt.Println(-1)
	} else {
		fmt.Println(st + 1)
	}
}
