package main

import (
	"bufio"
	"fmt"
	"os"
)

// shelf is an LRU store built from a map and a timestamp per key.
// Eviction scans for the oldest timestamp via a lazy min-heap of (time, key).
type entry struct {
	lastUsed int
	key      int
}

type shelf struct {
	capacity int
	lastUse  map[int]int
	heap     []entry
	clock    int
}

func (s *shelf) push(e entry) {
	s.heap = append(s.heap, e)
	i := len(s.heap) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if s.heap[parent].lastUsed <= s.heap[i].lastUsed {
			break
		}
		s.heap[parent], s.heap[i] = s.heap[i], s.heap[parent]
		i = parent
	}
}

func (s *shelf) pop() entry {
	top := s.heap[0]
	last := len(s.heap) - 1
	s.heap[0] = s.heap[last]
	s.heap = s.heap[:last]
	i := 0
	for {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < last && s.heap[left].lastUsed < s.heap[smallest].lastUsed {
			smallest = left
		}
		if right < last && s.heap[right].lastUsed < s.heap[smallest].lastUsed {
			smallest = right
		}
		if smallest == i {
			return top
		}
		s.heap[i], s.heap[smallest] = s.heap[smallest], s.heap[i]
		i = smallest
	}
}

// evictOldest removes the key whose latest use is the earliest; stale heap entries are skipped.
func (s *shelf) evictOldest() {
	for {
		candidate := s.pop()
		if used, ok := s.lastUse[candidate.key]; ok && used == candidate.lastUsed {
			delete(s.lastUse, candidate.key)
			return
		}
	}
}

// request touches key and reports whether it was a miss.
func (s *shelf) request(key int) bool {
	s.clock++
	_, present := s.lastUse[key]
	s.lastUse[key] = s.clock
	s.push(entry{lastUsed: s.clock, key: key})
	if present {
		return false
	}
	if len(s.lastUse) > s.capacity {
		s.evictOldest()
	}
	return true
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var capacity, requestCount int
	fmt.Fscan(reader, &capacity, &requestCount)
	store := &shelf{capacity: capacity, lastUse: make(map[int]int)}
	trips := 0
	for i := 0; i < requestCount; i++ {
		var key int
		fmt.Fscan(reader, &key)
		if store.request(key) {
			trips++
		}
	}
	fmt.Println(trips)
}
