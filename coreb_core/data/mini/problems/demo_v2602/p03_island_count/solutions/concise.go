package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	var r, c int
	fmt.Fscan(in, &r, &c)
	g := make([][]byte, r)
	for i := range g {
		var s string
		fmt.Fscan(in, &s)
		g[i] = []byte(s)
	}
	dx := []int{1, -1, 0, 0}
	dy := []int{0, 0, 1, -1}
	k := 0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g[i][j] != '#' {
				continue
			}
			k++
			g[i][j] = '.'
			st := [][2]int{{i, j}}
			for len(st) > 0 {
				p := st[len(st)-1]
				st = st[:len(st)-1]
				for d := 0; d < 4; d++ {
					a, b := p[0]+dx[d], p[1]+dy[d]
					if a >= 0 && a < r && b >= 0 && b < c && g[a][b] == '#' {
						g[a][b] = '.'
						st = append(st, [2]int{a, b})
					}
				}
			}
		}
	}
	fmt.Println(k)
}
