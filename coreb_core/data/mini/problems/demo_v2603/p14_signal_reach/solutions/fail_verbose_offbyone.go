package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

type tokenReader struct {
	scanner *bufio.Scanner
}

func newTokenReader() *tokenReader {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	scanner.Split(bufio.ScanWords)
	return &tokenReader{scanner: scanner}
}

func (t *tokenReader) nextInt() int {
	t.scanner.Scan()
	value, _ := strconv.Atoi(t.scanner.Text())
	return value
}

// countWithinHops explores the network level by level and stops after maxHops levels.
func countWithinHops(links [][]int, source, maxHops int) int {
	seen := make([]bool, len(links))
	seen[source] = true
	currentLevel := []int{source}
	total := 1
	for hop := 0; hop <= maxHops && len(currentLevel) > 0; hop++ {
		var nextLevel []int
		for _, node := range currentLevel {
			for _, neighbour := range links[node] {
				if !seen[neighbour] {
					seen[neighbour] = true
					nextLevel = append(nextLevel, neighbour)
				}
			}
		}
		total += len(nextLevel)
		currentLevel = nextLevel
	}
	return total
}

func main() {
	in := newTokenReader()
	nodeCount := in.nextInt()
	linkCount := in.nextInt()
	source := in.nextInt()
	maxHops := in.nextInt()
	links := make([][]int, nodeCount+1)
	for i := 0; i < linkCount; i++ {
		first := in.nextInt()
		second := in.nextInt()
		links[first] = append(links[first], second)
		links[second] = append(links[second], first)
	}
	fmt.Println(countWithinHops(links, source, maxHops))
}
