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
	var b, c, x int64
	for i := 0; i < n; i++ {
		fmt.Fscan(r, &x)
		if i == 0 || c < 0 {
			c = x
		} else {
			c += x
		}
		if i == 0 || c > b {
			b = c
		}
	}
	fmt.Println(b)
}
