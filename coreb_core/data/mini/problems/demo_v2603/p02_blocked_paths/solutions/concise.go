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
	const M = 1000000007
	f := make([]int64, w)
	f[0] = 1
	for i := 0; i < h; i++ {
		var s string
		fmt.Fscan(r, &s)
		for j := 0; j < w; j++ {
			if s[j] == '#' {
				f[j] = 0
			} else if j > 0 {
				f[j] = (f[j] + f[j-1]) % M
			}
		}
	}
	fmt.Println(f[w-1])
}
