package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var s, t string
	fmt.Fscan(r, &s, &t)
	n, m := len(s), len(t)
	p := make([]int, m+1)
	c := make([]int, m+1)
	for j := range p {
		p[j] = j
	}
	for i := 1; i <= n; i++ {
		c[0] = i
		for j := 1; j <= m; j++ {
			x := p[j-1]
			if s[i-1] != t[j-1] {
				x++
			}
			if p[j]+1 < x {
				x = p[j] + 1
			}
			if c[j-1]+1 < x {
				x = c[j-1] + 1
			}
			c[j] = x
		}
		p, c = c, p
	}
	fmt.Println(p[m])
}
