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
	t := []int64{}
	for i := 0; i < n; i++ {
		var x int64
		fmt.Fscan(r, &x)
		j := sort.Search(len(t), func(k int) bool { return t[k] >= x })
		if j == len(t) {
			t = append(t, x)
		} else {
			t[j] = x
		}
	}
	fmt.Println(len(t))
}
