package main

import (
	"bufio"
	"fmt"
	"os"
)

const P = 1000000007
const N = 1000001

func pw(b, e int64) int64 {
	r := int64(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % P
		}
		b = b * b % P
	}
	return r
}

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	f := make([]int64, N)
	g := make([]int64, N)
	f[0] = 1
	for i := 1; i < N; i++ {
		f[i] = f[i-1] * int64(i) % P
	}
	g[N-1] = pw(f[N-1], P-2)
	for i := N - 1; i > 0; i-- {
		g[i-1] = g[i] * int64(i) % P
	}
	var q, n, k int
	fmt.Fscan(r, &q)
	for ; q > 0; q-- {
		fmt.Fscan(r, &n, &k)
		if k > n {
			fmt.Fprintln(w, 0)
		} else {
			fmt.Fprintln(w, f[n]*g[k]%P*g[n-k]%P)
		}
	}
}
