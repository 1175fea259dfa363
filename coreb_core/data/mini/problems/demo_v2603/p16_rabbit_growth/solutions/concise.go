package main

import "fmt"

const M = 1000000007

func main() {
	var n uint64
	fmt.Scan(&n)
	a, b := uint64(0), uint64(1)
	for i := 63; i >= 0; i-- {
		c := a * ((2*b + M - a) % M) % M
		d := (a*a + b*b) % M
		if n>>uint(i)&1 == 1 {
			a, b = d, (c+d)%M
		} else {
			a, b = c, d
		}
	}
	fmt.Println(a)
}
