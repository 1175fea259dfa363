package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
	"strconv"
	"strings"
)

type H []int

func (h H) Len() int            { return len(h) }
func (h H) Less(i, j int) bool  { return h[i] < h[j] }
func (h H) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *H) Push(x interface{}) { *h = append(*h, x.(int)) }
func (h *H) Pop() interface{}   { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(r, &n, &m)
	g := make([][]int, n+1)
	in := make([]int, n+1)
	for i := 0; i < m; i++ {
		var u, v int
		fmt.Fscan(r, &u, &v)
		g[u] = append(g[u], v)
		in[v]++
	}
	h := &H{}
	for i := 1; i <= n; i++ {
		if in[i] == 0 {
			*h = append(*h, i)
		}
	}
	heap.Init(h)
	o := []string{}
	for h.Len() > 0 {
		u := heap.Pop(h).(int)
		o = append(o, strconv.Itoa(u))
		for _, v := range g[u] {
			in[v]--
			if in[v] == 0 {
				heap.Push(h, v)
			}
		}
	}
	if len(o) < n {
		fmt.Println("IMPOSSIBLE")
	} else {
		fmt.Println(strings.Join(o, " "))
	}
}
