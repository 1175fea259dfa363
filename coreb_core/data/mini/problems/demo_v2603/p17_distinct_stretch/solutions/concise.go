package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	var s string
	fmt.Fscan(bufio.NewReader(os.Stdin), &s)
	var L [256]int
	for i := range L {
		L[i] = -1
	}
	l, b := 0, 0
	for i := 0; i < len(s); i++ {
		if L[s[i]] >= l {
			l = L[s[i]] + 1
		}
		L[s[i]] = i
		if i-l+1 > b {
			b = i - l + 1
		}
	}
	fmt.Println(b)
}
