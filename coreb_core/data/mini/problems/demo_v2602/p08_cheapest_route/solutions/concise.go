package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
)

type it struct {
	d int64
	u int
}
type H []it

func (h H) Len() int            { return len(h) }
func (h H) Less(i, j int) bool  { return h[i].d < h[j].d }
func (h H) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *H) Push(x interface{}) { *h = append(*h, x.(it)) }
func (h *H) Pop() interface{}   { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }

type e struct {
	v int
	w int64
}

func main() {
	r := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(r, &n, &m)
	g := make([][]e, n+1)
	for i := 0; i < m; i++ {
		var u, v int
		var w int64
		fmt.Fscan(r, &u, &v, &w)
		g[u] = append(g[u], e{v, w})
		g[v] = append(g[v], e{u, w})
	}
	d := make([]int64, n+1)
	for i := range d {
		d[i] = -1
	}
	d[1] = 0
	h := &H{{0, 1}}
	for h.Len() > 0 {
		t := heap.Pop(h).(it)
		if t.d > d[t.u] {
			continue
		}
		for _, x := range g[t.u] {
			if d[x.v] < 0 || t.d+x.w < d[x.v] {
				d[x.v] = t.d + x.w
				heap.Push(h, it{d[x.v], x.v})
			}
		}
	}
	fmt.Println(d[n])
}
