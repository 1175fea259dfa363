package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	rd := bufio.NewReader(os.Stdin)
	var n int
	var k int64
	fmt.Fscan(rd, &n, &k)
	c := map[int64]int64{}
	var r int64
	for i := 0; i < n; i++ {
		var x int64
		fmt.Fscan(rd, &x)
		r += c[k-x]
		c[x]++
	}
	fmt.Println(r)
}
