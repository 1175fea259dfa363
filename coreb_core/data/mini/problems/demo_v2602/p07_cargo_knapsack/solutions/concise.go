package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, W int
	fmt.Fscan(r, &n, &W)
	f := make([]int64, W+1)
	for i := 0; i < n; i++ {
		var w int
		var v int64
		fmt.Fscan(r, &w, &v)
		for c := W; c >= w; c-- {
			if f[c-w]+v > f[c] {
				f[c] = f[c-w] + v
			}
		}
	}
	fmt.Println(f[W])
}
