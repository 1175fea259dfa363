package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(r, &n)
	a := make([]int, n)
	t := 0
	for i := range a {
		fmt.Fscan(r, &a[i])
		t += a[i]
	}
	if t%2 == 1 {
		fmt.Println("NO")
		return
	}
	h := t / 2
	d := make([]bool, h+1)
	d[0] = true
	for _, w := range a {
		for j := h; j >= w; j-- {
			if d[j-w] {
				d[j] = true
			}
		}
	}
	if d[h] {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
