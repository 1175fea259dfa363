package main

import (
	"bufio"
	"fmt"
	"os"
)

const modulus = 1000000007

// countRoutes fills a table of route counts, cell by cell, in row-major order.
func countRoutes(grid []string, height, width int) int64 {
	ways := make([][]int64, height)
	for row := range ways {
		ways[row] = make([]int64, width)
	}
	for row := 0; row < height; row++ {
		for col := 0; col < width; col++ {
			if grid[row][col] == '#' {
				continue // blocked cells keep zero routes
			}
			if row == 0 && col == 0 {
				ways[row][col] = 1
				continue
			}
			var total int64
			if row > 0 {
				total += ways[row-1][col]
			}
			if col > 0 {
				total += ways[row][col-1]
			}
			ways[row][col] = total % modulus
		}
	}
	return ways[height-1][width-1]
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var height, width int
	fmt.Fscan(reader, &height, &width)
	grid := make([]string, height)
	for row := range grid {
		fmt.Fscan(reader, &grid[row])
	}
	fmt.Println(countRoutes(grid, height, width))
}
