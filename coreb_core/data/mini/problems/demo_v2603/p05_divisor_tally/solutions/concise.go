package main

import "fmt"

func main() {
	var n int64
	fmt.Scan(&n)
	c := 0
	for i := int64(1); i*i <= n; i++ {
		if n%i == 0 {
			if i*i == n {
				c++
			} else {
				c += 2
			}
		}
	}
	fmt.Println(c)
}
