package main

import "fmt"

func main() {
	var L, R int
	fmt.Scan(&L, &R)
	c := make([]bool, R+1)
	c[0] = true
	if R >= 1 {
		c[1] = true
	}
	for i := 2; i*i < R; i++ {
		if !c[i] {
			for j := i * i; j <= R; j += i {
				c[j] = true
			}
		}
	}
	r := 0
	for i := L; i <= R; i++ {
		if !c[i] {
			r++
		}
	}
	fmt.Println(r)
}
