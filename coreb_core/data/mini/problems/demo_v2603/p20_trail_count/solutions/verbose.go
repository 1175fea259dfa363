package main

import (
	"bufio"
	"fmt"
	"os"
)

const modulus = 1_000_000_007

// routeCounter counts routes to the last vertex with a memoised depth-first search.
type routeCounter struct {
	successors [][]int
	target     int
	memo       []int64
	known      []bool
}

func (c *routeCounter) routesFrom(vertex int) int64 {
	if c.known[vertex] {
		return c.memo[vertex]
	}
	var total int64
	if vertex == c.target {
		total = 1
	}
	for _, next := range c.successors[vertex] {
		total = (total + c.routesFrom(next)) % modulus
	}
	c.memo[vertex] = total
	c.known[vertex] = true
	return total
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var vertexCount, edgeCount int
	fmt.Fscan(reader, &vertexCount, &edgeCount)
	successors := make([][]int, vertexCount+1)
	for i := 0; i < edgeCount; i++ {
		var from, to int
		fmt.Fscan(reader, &from, &to)
		successors[from] = append(successors[from], to)
	}
	counter := &routeCounter{
		successors: successors,
		target:     vertexCount,
		memo:       make([]int64, vertexCount+1),
		known:      make([]bool, vertexCount+1),
	}
	fmt.Println(counter.routesFrom(1))
}
