package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"math"
	"os"
)

const unreached = math.MaxInt64

// road is one undirected connection with the toll paid to use it.
type road struct {
	destination int
	toll        int64
}

// visit is a heap entry holding a tentative cost for a junction.
type visit struct {
	cost     int64
	junction int
}

// visitQueue is a min-heap of visits ordered by cost.
type visitQueue []visit

func (q visitQueue) Len() int            { return len(q) }
func (q visitQueue) Less(i, j int) bool  { return q[i].cost < q[j].cost }
func (q visitQueue) Swap(i, j int)       { q[i], q[j] = q[j], q[i] }
func (q *visitQueue) Push(x interface{}) { *q = append(*q, x.(visit)) }
func (q *visitQueue) Pop() interface{} {
	old := *q
	last := old[len(old)-1]
	*q = old[:len(old)-1]
	return last
}

func readNetwork() (int, [][]road) {
	reader := bufio.NewReader(os.Stdin)
	var junctionCount, roadCount int
	fmt.Fscan(reader, &junctionCount, &roadCount)
	roads := make([][]road, junctionCount+1)
	for i := 0; i < roadCount; i++ {
		var from, to int
		var toll int64
		fmt.Fscan(reader, &from, &to, &toll)
		roads[from] = append(roads[from], road{to, toll})
		roads[to] = append(roads[to], road{from, toll})
	}
	return junctionCount, roads
}

// cheapestCosts runs Dijkstra's algorithm from source over all junctions.
func cheapestCosts(roads [][]road, source int) []int64 {
	bestCost := make([]int64, len(roads))
	for i := range bestCost {
		bestCost[i] = unreached
	}
	settled := make([]bool, len(roads))
	bestCost[source] = 0
	frontier := &visitQueue{{cost: 0, junction: source}}
	for frontier.Len() > 0 {
		current := heap.Pop(frontier).(visit)
		if settled[current.junction] {
			continue
		}
		settled[current.junction] = true
		for _, next := range roads[current.junction] {
			candidate := current.cost + next.toll
			if candidate < bestCost[next.destination] {
				bestCost[next.destination] = candidate
				heap.Push(frontier, visit{candidate, next.destination})
			}
		}
	}
	return bestCost
}

func main() {
	junctionCount, roads := readNetwork()
	answer := cheapestCosts(roads, 1)[junctionCount]
	if answer == unreached {
		answer = -1
	}
	fmt.Println(answer)
}
