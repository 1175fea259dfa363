package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
)

type H []int64

func (h H) Len() int            { return len(h) }
func (h H) Less(i, j int) bool  { return h[i] < h[j] }
func (h H) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *H) Push(x interface{}) { *h = append(*h, x.(int64)) }
func (h *H) Pop() interface{} {
	o := *h
	x := o[len(o)-1]
	*h = o[:len(o)-1]
	return x
}

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var n int
	fmt.Fscan(r, &n)
	a, b := &H{}, &H{}
	for i := 0; i < n; i++ {
		var x int64
		fmt.Fscan(r, &x)
		heap.Push(a, -x)
		heap.Push(b, -heap.Pop(a).(int64))
		if b.Len() > a.Len() {
			heap.Push(a, -heap.Pop(b).(int64))
		}
		fmt.Fprintln(w, -(*a)[0])
	}
}
