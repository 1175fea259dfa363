package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	rd := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(rd, &n)
	a := make([]int64, n)
	for i := range a {
		fmt.Fscan(rd, &a[i])
	}
	var r, e, m int64
	for i := int64(0); i < int64(n-1); i++ {
		if i+a[i] > m {
			m = i + a[i]
		}
		if i == e {
			if m <= i {
				fmt.Println(-1)
				return
			}
			r++
			e = m
		}
	}
	fmt.Println(r)
}
