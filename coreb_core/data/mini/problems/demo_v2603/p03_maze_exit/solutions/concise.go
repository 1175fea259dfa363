package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var h, w int
	fmt.Fscan(r, &h, &w)
	g := make([]string, h)
	s, e := 0, 0
	for i := range g {
		fmt.Fscan(r, &g[i])
		for j := 0; j < w; j++ {
			if g[i][j] == 'S' {
				s = i*w + j
			} else if g[i][j] == 'E' {
				e = i*w + j
			}
		}
	}
	d := make([]int, h*w)
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	dx, dy := []int{1, -1, 0, 0}, []int{0, 0, 1, -1}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		x, y := v/w, v%w
		for k := 0; k < 4; k++ {
			a, b := x+dx[k], y+dy[k]
			if a < 0 || a >= h || b < 0 || b >= w || g[a][b] == '#' || d[a*w+b] >= 0 {
				continue
			}
			d[a*w+b] = d[v] + 1
			q = append(q, a*w+b)
		}
	}
	fmt.Println(d[e])
}
