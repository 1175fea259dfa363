package main

import (
	"bufio"
	"fmt"
	"os"
)

// circles is a disjoint-set union over pupils 1..n with a running group counter.
type circles struct {
	parent []int
	size   []int
	groups int
}

func newCircles(pupilCount int) *circles {
	c := &circles{parent: make([]int, pupilCount+1), size: make([]int, pupilCount+1), groups: pupilCount}
	for pupil := range c.parent {
		c.parent[pupil] = pupil
		c.size[pupil] = 1
	}
	return c
}

// leader returns the representative of the pupil's circle, compressing the path recursively.
func (c *circles) leader(pupil int) int {
	if c.parent[pupil] != pupil {
		c.parent[pupil] = c.leader(c.parent[pupil])
	}
	return c.parent[pupil]
}

// merge joins the circles of two pupils; it reports whether anything changed.
func (c *circles) merge(first, second int) bool {
	firstLeader, secondLeader := c.leader(first), c.leader(second)
	if firstLeader == secondLeader {
		return false
	}
	if c.size[firstLeader] < c.size[secondLeader] {
		firstLeader, secondLeader = secondLeader, firstLeader
	}
	c.parent[secondLeader] = firstLeader
	c.size[firstLeader] += c.size[secondLeader]
	c.groups--
	return true
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	var pupilCount, entryCount int
	fmt.Fscan(reader, &pupilCount, &entryCount)
	registry := newCircles(pupilCount)
	for entry := 0; entry < entryCount; entry++ {
		var first, second int
		fmt.Fscan(reader, &first, &second)
		registry.merge(first, second)
		fmt.Fprintln(writer, registry.groups)
	}
}
