package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	var s string
	fmt.Fscan(bufio.NewReader(os.Stdin), &s)
	n := len(s)
	f := make([]int, n)
	for i, k := 1, 0; i < n; i++ {
		for k > 0 && s[i] != s[k] {
			k = f[k-1]
		}
		if s[i] == s[k] {
			k++
		}
		f[i] = k
	}
	p := n - f[n-1]
	if n%p != 0 {
		p = n
	}
	fmt.Println(p)
}
