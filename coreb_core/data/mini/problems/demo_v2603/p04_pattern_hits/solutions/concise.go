package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	var t, p string
	fmt.Fscan(r, &t, &p)
	m := len(p)
	f := make([]int, m)
	for i, k := 1, 0; i < m; i++ {
		for k > 0 && p[i] != p[k] {
			k = f[k-1]
		}
		if p[i] == p[k] {
			k++
		}
		f[i] = k
	}
	c := 0
	for i, k := 0, 0; i < len(t); i++ {
		for k > 0 && t[i] != p[k] {
			k = f[k-1]
		}
		if t[i] == p[k] {
			k++
		}
		if k == m {
			c++
			k = f[k-1]
		}
	}
	fmt.Println(c)
}
