package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m, s, k int
	fmt.Fscan(r, &n, &m, &s, &k)
	g := make([][]int, n+1)
	for i := 0; i < m; i++ {
		var u, v int
		fmt.Fscan(r, &u, &v)
		g[u] = append(g[u], v)
		g[v] = append(g[v], u)
	}
	d := make([]int, n+1)
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	c := 0
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		if d[u] > k {
			break
		}
		c++
		for _, v := range g[u] {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, v)
			}
		}
	}
	fmt.Println(c)
}
