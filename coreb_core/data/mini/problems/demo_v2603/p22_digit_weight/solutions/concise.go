package main

import "fmt"

func main() {
	var n, b, s int64
	fmt.Scan(&n, &b)
	for ; n > 0; n /= b {
		s += n % b
	}
	fmt.Println(s)
}
