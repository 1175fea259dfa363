package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
	"strconv"
)

// intHeap is a min-heap; the lower half stores negated values to act as a max-heap.
type intHeap []int64

func (h intHeap) Len() int            { return len(h) }
func (h intHeap) Less(i, j int) bool  { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x interface{}) { *h = append(*h, x.(int64)) }
func (h *intHeap) Pop() interface{} {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

type medianTracker struct {
	lowerNegated intHeap // max-heap of the smaller half, stored negated
	upper        intHeap // min-heap of the larger half
}

func (m *medianTracker) add(weight int64) {
	if m.lowerNegated.Len() == 0 || weight <= -m.lowerNegated[0] {
		heap.Push(&m.lowerNegated, -weight)
	} else {
		heap.Push(&m.upper, weight)
	}
	if m.lowerNegated.Len() > m.upper.Len()+1 {
		heap.Push(&m.upper, -heap.Pop(&m.lowerNegated).(int64))
	} else if m.upper.Len() > m.lowerNegated.Len() {
		heap.Push(&m.lowerNegated, -heap.Pop(&m.upper).(int64))
	}
}

func (m *medianTracker) lowerMedian() int64 {
	return -m.lowerNegated[0]
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	scanner.Split(bufio.ScanWords)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	scanner.Scan()
	count, _ := strconv.Atoi(scanner.Text())
	tracker := &medianTracker{}
	for i := 0; i < count; i++ {
		scanner.Scan()
		weight, _ := strconv.ParseInt(scanner.Text(), 10, 64)
		tracker.add(weight)
		fmt.Fprintln(writer, tracker.lowerMedian())
	}
}
