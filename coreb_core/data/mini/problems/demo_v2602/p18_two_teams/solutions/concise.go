package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(r, &n, &m)
	g := make([][]int, n+1)
	for i := 0; i < m; i++ {
		var a, b int
		fmt.Fscan(r, &a, &b)
		g[a] = append(g[a], b)
		g[b] = append(g[b], a)
	}
	c := make([]int, n+1)
	ok := true
	for s := 1; s <= n; s++ {
		if c[s] != 0 {
			continue
		}
		c[s] = 1
		q := []int{s}
		for len(q) > 0 {
			u := q[0]
			q = q[1:]
			for _, v := range g[u] {
				if c[v] == 0 {
					c[v] = 3 - c[u]
					q = append(q, v)
				} else if c[v] == c[u] {
					ok = false
				}
			}
		}
	}
	if ok {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
