package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	s, e := make([]int64, n), make([]int64, n)
	for i := 0; i < n; i++ {
		fmt.Fscan(r, &s[i], &e[i])
	}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	sort.Slice(e, func(i, j int) bool { return e[i] < e[j] })
	b, j := 0, 0
	for i := 0; i < n; i++ {
		for e[j] < s[i] {
			j++
		}
		if i-j+1 > b {
			b = i - j + 1
		}
	}
	fmt.Println(b)
}
