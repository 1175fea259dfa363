package main

import "fmt"

func main() {
	var a, b string
	fmt.Scan(&a, &b)
	m := len(b)
	dp := make([]int, m+1)
	for i := 0; i < len(a); i++ {
		d := 0
		for j := 1; j <= m; j++ {
			t := dp[j]
			if a[i] == b[j-1] {
				dp[j] = d + 1
			} else if dp[j-1] > dp[j] {
				dp[j] = dp[j-1]
			}
			d = t
		}
	}
	fmt.Println(dp[m])
}
