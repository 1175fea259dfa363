package main

import (
	"bufio"
	"fmt"
	"os"
)

const M = 1000000007

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(r, &n, &m)
	g := make([][]int, n+1)
	d := make([]int, n+1)
	for i := 0; i < m; i++ {
		var u, v int
		fmt.Fscan(r, &u, &v)
		g[u] = append(g[u], v)
		d[v]++
	}
	f := make([]int64, n+1)
	f[1] = 1
	q := []int{}
	for i := 1; i <= n; i++ {
		if d[i] == 0 {
			q = append(q, i)
		}
	}
	for k := 0; k < len(q); k++ {
		u := q[k]
		for _, v := range g[u] {
			f[v] = (f[v] + f[u]) % M
			d[v]--
			if d[v] == 0 {
				q = append(q, v)
			}
		}
	}
	fmt.Println(f[n])
}
