package main

import (
	"bufio"
	"fmt"
	"os"
)

const unassigned = -1

type camp struct {
	rivals [][]int
	team   []int
}

func readCamp(reader *bufio.Reader) *camp {
	var camperCount, rivalryCount int
	fmt.Fscan(reader, &camperCount, &rivalryCount)
	c := &camp{
		rivals: make([][]int, camperCount+1),
		team:   make([]int, camperCount+1),
	}
	for i := 0; i < rivalryCount; i++ {
		var first, second int
		fmt.Fscan(reader, &first, &second)
		c.rivals[first] = append(c.rivals[first], second)
		c.rivals[second] = append(c.rivals[second], first)
	}
	return c
}

// colourGroup assigns alternating teams by breadth-first search from start.
// It reports false when two rivals end up needing the same team.
func (c *camp) colourGroup(start int) bool {
	c.team[start] = 0
	queue := []int{start}
	for head := 0; head < len(queue); head++ {
		camper := queue[head]
		for _, rival := range c.rivals[camper] {
			switch {
			case c.team[rival] == unassigned:
				c.team[rival] = 1 - c.team[camper]
				queue = append(queue, rival)
			case c.team[rival] == c.team[camper]:
				return false
			}
		}
	}
	return true
}

func (c *camp) canSplit() bool {
	for camper := 1; camper < len(c.team); camper++ {
		if c.team[camper] == unassigned && !c.colourGroup(camper) {
			return false
		}
	}
	return true
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	c := readCamp(reader)
	if c.canSplit() {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
