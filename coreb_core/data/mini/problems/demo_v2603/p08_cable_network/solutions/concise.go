package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

var p []int

func f(x int) int {
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(r, &n, &m)
	e := make([][3]int64, m)
	for i := range e {
		fmt.Fscan(r, &e[i][0], &e[i][1], &e[i][2])
	}
	sort.Slice(e, func(i, j int) bool { return e[i][2] < e[j][2] })
	p = make([]int, n+1)
	for i := range p {
		p[i] = i
	}
	var s int64
	c := 0
	for _, x := range e {
		a, b := f(int(x[0])), f(int(x[1]))
		if a != b {
			p[a] = b
			s += x[2]
			c++
		}
	}
	if c != n-1 {
		s = -1
	}
	fmt.Println(s)
}
