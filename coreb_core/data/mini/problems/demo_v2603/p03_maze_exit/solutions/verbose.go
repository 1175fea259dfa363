package main

import (
	"bufio"
	"fmt"
	"os"
)

type cell struct{ row, col int }

var directions = []cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// findCell returns the position of the given symbol in the maze.
func findCell(rows []string, symbol byte) cell {
	for r, line := range rows {
		for c := 0; c < len(line); c++ {
			if line[c] == symbol {
				return cell{r, c}
			}
		}
	}
	return cell{-1, -1}
}

// shortestWalk runs a breadth-first search and returns the step count or -1.
func shortestWalk(rows []string, height, width int) int {
	start, goal := findCell(rows, 'S'), findCell(rows, 'E')
	steps := make([][]int, height)
	for r := range steps {
		steps[r] = make([]int, width)
		for c := range steps[r] {
			steps[r][c] = -1
		}
	}
	steps[start.row][start.col] = 0
	queue := []cell{start}
	for head := 0; head < len(queue); head++ {
		current := queue[head]
		if current == goal {
			return steps[current.row][current.col]
		}
		for _, dir := range directions {
			next := cell{current.row + dir.row, current.col + dir.col}
			if next.row < 0 || next.row >= height || next.col < 0 || next.col >= width {
				continue
			}
			if rows[next.row][next.col] == '#' || steps[next.row][next.col] != -1 {
				continue
			}
			steps[next.row][next.col] = steps[current.row][current.col] + 1
			queue = append(queue, next)
		}
	}
	return -1
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var height, width int
	fmt.Fscan(reader, &height, &width)
	rows := make([]string, height)
	for i := range rows {
		fmt.Fscan(reader, &rows[i])
	}
	fmt.Println(shortestWalk(rows, height, width))
}
