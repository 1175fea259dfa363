package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	m := map[[26]int]int{}
	b := 0
	for i := 0; i < n; i++ {
		var s string
		fmt.Fscan(r, &s)
		var k [26]int
		for _, c := range s {
			k[c-'a']++
		}
		m[k]++
		if m[k] > b {
			b = m[k]
		}
	}
	fmt.Println(len(m), b)
}
