package main

import (
	"bufio"
	"fmt"
	"os"
)

type cell struct {
	row, col int
}

type chart struct {
	rows, cols int
	squares    []string
	seen       [][]bool
}

func newChart(rows, cols int, squares []string) *chart {
	seen := make([][]bool, rows)
	for i := range seen {
		seen[i] = make([]bool, cols)
	}
	return &chart{rows: rows, cols: cols, squares: squares, seen: seen}
}

func (c *chart) isLand(row, col int) bool {
	return row >= 0 && row < c.rows && col >= 0 && col < c.cols && c.squares[row][col] == '#'
}

// floodFrom visits every land square reachable from start through shared sides.
func (c *chart) floodFrom(start cell) {
	queue := []cell{start}
	c.seen[start.row][start.col] = true
	neighbours := []cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	for head := 0; head < len(queue); head++ {
		current := queue[head]
		for _, step := range neighbours {
			next := cell{current.row + step.row, current.col + step.col}
			if c.isLand(next.row, next.col) && !c.seen[next.row][next.col] {
				c.seen[next.row][next.col] = true
				queue = append(queue, next)
			}
		}
	}
}

func (c *chart) countIslands() int {
	islands := 0
	for row := 0; row < c.rows; row++ {
		for col := 0; col < c.cols; col++ {
			if c.isLand(row, col) && !c.seen[row][col] {
				islands++
				c.floodFrom(cell{row, col})
			}
		}
	}
	return islands
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var rows, cols int
	fmt.Fscan(reader, &rows, &cols)
	squares := make([]string, rows)
	for i := range squares {
		fmt.Fscan(reader, &squares[i])
	}
	fmt.Println(newChart(rows, cols, squares).countIslands())
}
