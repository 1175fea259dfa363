package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
)

// RopeHeap is a min-heap of rope lengths.
type RopeHeap []int64

func (h RopeHeap) Len() int            { return len(h) }
func (h RopeHeap) Less(i, j int) bool  { return h[i] < h[j] }
func (h RopeHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *RopeHeap) Push(x interface{}) { *h = append(*h, x.(int64)) }
func (h *RopeHeap) Pop() interface{} {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

// minimumMergeCost joins the two shortest ropes until a single rope remains.
func minimumMergeCost(lengths []int64) int64 {
	ropes := RopeHeap(append([]int64(nil), lengths...))
	heap.Init(&ropes)
	var totalCost int64
	for ropes.Len() > 1 {
		shortest := heap.Pop(&ropes).(int64)
		secondShortest := heap.Pop(&ropes).(int64)
		combined := shortest + secondShortest
		totalCost += combined
		heap.Push(&ropes, combined)
	}
	return totalCost
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var ropeCount int
	fmt.Fscan(reader, &ropeCount)
	lengths := make([]int64, ropeCount)
	for i := range lengths {
		fmt.Fscan(reader, &lengths[i])
	}
	fmt.Println(minimumMergeCost(lengths))
}
