package main

import (
	"bufio"
	"fmt"
	"os"
)

const M = 1000000007

func pw(b, e int64) int64 {
	r := int64(1)
	b %= M
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % M
		}
		b = b * b % M
	}
	return r
}

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var t int
	fmt.Fscan(r, &t)
	for ; t > 0; t-- {
		var a, n int64
		fmt.Fscan(r, &a, &n)
		a %= M
		if a == 1 {
			fmt.Fprintln(w, (n%M+1)%M)
		} else {
			fmt.Fprintln(w, (pw(a, n+1)-1+M)%M*pw((a-1+M)%M, M-2)%M)
		}
	}
}
