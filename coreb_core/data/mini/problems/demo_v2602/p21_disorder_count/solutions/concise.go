package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

func main() {
	rd := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(rd, &n)
	a := make([]int, n)
	for i := range a {
		fmt.Fscan(rd, &a[i])
	}
	s := append([]int(nil), a...)
	sort.Ints(s)
	m := 0
	for i := range s {
		if i == 0 || s[i] != s[i-1] {
			s[m] = s[i]
			m++
		}
	}
	s = s[:m]
	t := make([]int64, m+1)
	var r int64
	for i, x := range a {
		k := sort.SearchInts(s, x) + 1
		var q int64
		for j := k; j > 0; j -= j & -j {
			q += t[j]
		}
		r += int64(i) - q
		for ; k <= m; k += k & -k {
			t[k]++
		}
	}
	fmt.Println(r)
}
