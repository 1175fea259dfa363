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
	a := make([]int64, n)
	for i := range a {
		fmt.Fscan(r, &a[i])
	}
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	b := []int64{}
	i, j := 0, 0
	pick := func() int64 {
		if j >= len(b) || (i < n && a[i] <= b[j]) {
			i++
			return a[i-1]
		}
		j++
		return b[j-1]
	}
	var t int64
	for (n-i)+(len(b)-j) > 1 {
		s := pick() + pick()
		t += s
		b = append(b, s)
	}
	fmt.Println(t)
}
