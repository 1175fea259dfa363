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
	a := make([]int64, n)
	var g int64
	for i := range a {
		fmt.Fscan(r, &a[i])
		x, y := g, a[i]
		for y != 0 {
			x, y = y, x%y
		}
		g = x
	}
	c := 0
	for _, x := range a {
		if x == g {
			c++
		}
	}
	fmt.Println(g, c)
}
