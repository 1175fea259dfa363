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
	s, e := make([]int, n), make([]int, n)
	id := make([]int, n)
	for i := range s {
		fmt.Fscan(r, &s[i], &e[i])
		id[i] = i
	}
	sort.Slice(id, func(a, b int) bool { return e[id[a]] < e[id[b]] })
	c, t := 0, 1
	for _, i := range id {
		if s[i] >= t {
			c++
			t = e[i]
		}
	}
	fmt.Println(c)
}
