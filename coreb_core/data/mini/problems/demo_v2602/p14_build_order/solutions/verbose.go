package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// readyQueue is a min-heap of task numbers that have no unfinished prerequisites.
type readyQueue []int

func (q readyQueue) Len() int            { return len(q) }
func (q readyQueue) Less(i, j int) bool  { return q[i] < q[j] }
func (q readyQueue) Swap(i, j int)       { q[i], q[j] = q[j], q[i] }
func (q *readyQueue) Push(x interface{}) { *q = append(*q, x.(int)) }
func (q *readyQueue) Pop() interface{} {
	old := *q
	last := old[len(old)-1]
	*q = old[:len(old)-1]
	return last
}

type dependencyGraph struct {
	taskCount  int
	successors [][]int
	inDegree   []int
}

func readGraph(reader *bufio.Reader) dependencyGraph {
	var taskCount, ruleCount int
	fmt.Fscan(reader, &taskCount, &ruleCount)
	graph := dependencyGraph{
		taskCount:  taskCount,
		successors: make([][]int, taskCount+1),
		inDegree:   make([]int, taskCount+1),
	}
	for i := 0; i < ruleCount; i++ {
		var before, after int
		fmt.Fscan(reader, &before, &after)
		graph.successors[before] = append(graph.successors[before], after)
		graph.inDegree[after]++
	}
	return graph
}

// smallestOrder returns the lexicographically smallest valid order and whether one exists.
func smallestOrder(graph dependencyGraph) ([]int, bool) {
	queue := &readyQueue{}
	for task := 1; task <= graph.taskCount; task++ {
		if graph.inDegree[task] == 0 {
			heap.Push(queue, task)
		}
	}
	order := make([]int, 0, graph.taskCount)
	for queue.Len() > 0 {
		task := heap.Pop(queue).(int)
		order = append(order, task)
		for _, next := range graph.successors[task] {
			graph.inDegree[next]--
			if graph.inDegree[next] == 0 {
				heap.Push(queue, next)
			}
		}
	}
	return order, len(order) == graph.taskCount
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	graph := readGraph(reader)
	order, ok := smallestOrder(graph)
	if !ok {
		fmt.Println("IMPOSSIBLE")
		return
	}
	parts := make([]string, len(order))
	for i, task := range order {
		parts[i] = strconv.Itoa(task)
	}
	fmt.Println(strings.Join(parts, " "))
}
