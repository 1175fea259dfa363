package main

import "fmt"

func main() {
	var s string
	fmt.Scan(&s)
	n, b := len(s), 0
	for i := 0; i < n-1; i++ {
		for k := 0; k < 2; k++ {
			l, r := i, i+k
			for l >= 0 && r < n && s[l] == s[r] {
				l--
				r++
			}
			if r-l-1 > b {
				b = r - l - 1
			}
		}
	}
	fmt.Println(b)
}
