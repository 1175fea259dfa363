package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

// Cable is a possible connection between two stations.
type Cable struct {
	From, To int
	Cost     int64
}

// DisjointSet tracks which stations are already linked together.
type DisjointSet struct {
	parent []int
	size   []int
}

func newDisjointSet(count int) *DisjointSet {
	ds := &DisjointSet{parent: make([]int, count), size: make([]int, count)}
	for i := range ds.parent {
		ds.parent[i] = i
		ds.size[i] = 1
	}
	return ds
}

func (ds *DisjointSet) Find(node int) int {
	for ds.parent[node] != node {
		ds.parent[node] = ds.parent[ds.parent[node]]
		node = ds.parent[node]
	}
	return node
}

func (ds *DisjointSet) Union(a, b int) bool {
	rootA, rootB := ds.Find(a), ds.Find(b)
	if rootA == rootB {
		return false
	}
	if ds.size[rootA] < ds.size[rootB] {
		rootA, rootB = rootB, rootA
	}
	ds.parent[rootB] = rootA
	ds.size[rootA] += ds.size[rootB]
	return true
}

// minimumSpanningCost runs Kruskal's algorithm and reports -1 when the network stays split.
func minimumSpanningCost(stationCount int, cables []Cable) int64 {
	sort.Slice(cables, func(i, j int) bool { return cables[i].Cost < cables[j].Cost })
	sets := newDisjointSet(stationCount + 1)
	var totalCost int64
	usedCables := 0
	for _, cable := range cables {
		if sets.Union(cable.From, cable.To) {
			totalCost += cable.Cost
			usedCables++
		}
	}
	if usedCables != stationCount-1 {
		return -1
	}
	return totalCost
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var stationCount, cableCount int
	fmt.Fscan(reader, &stationCount, &cableCount)
	cables := make([]Cable, cableCount)
	for i := range cables {
		fmt.Fscan(reader, &cables[i].From, &cables[i].To, &cables[i].Cost)
	}
	fmt.Println(minimumSpanningCost(stationCount, cables))
}
