package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, s int
	fmt.Fscan(r, &n, &s)
	c := make([]int, n)
	for i := range c {
		fmt.Fscan(r, &c[i])
	}
	const I = 1 << 30
	d := make([]int, s+1)
	for i := 1; i <= s; i++ {
		d[i] = I
	}
	for _, v := range c {
		for a := v; a <= s; a++ {
			if d[a-v]+1 < d[a] {
				d[a] = d[a-v] + 1
			}
		}
	}
	if d[s] == I {
		d[s] = -1
	}
	fmt.Println(d[s])
}
