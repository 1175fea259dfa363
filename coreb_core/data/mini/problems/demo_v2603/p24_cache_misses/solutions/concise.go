package main

import (
	"bufio"
	"container/list"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var c, n int
	fmt.Fscan(r, &c, &n)
	l := list.New()
	m := map[int]*list.Element{}
	t := 0
	for ; n > 0; n-- {
		var x int
		fmt.Fscan(r, &x)
		if e, ok := m[x]; ok {
			l.MoveToBack(e)
			continue
		}
		t++
		m[x] = l.PushBack(x)
		if l.Len() > c {
			f := l.Front()
			delete(m, f.Value.(int))
			l.Remove(f)
		}
	}
	fmt.Println(t)
}
