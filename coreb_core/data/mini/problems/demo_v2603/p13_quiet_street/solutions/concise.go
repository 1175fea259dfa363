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
	var p, q int64
	for i := 0; i < n; i++ {
		var x int64
		fmt.Fscan(r, &x)
		t := p + x
		if q > t {
			t = q
		}
		p, q = q, t
	}
	fmt.Println(q)
}
