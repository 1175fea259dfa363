package main

import (
	"bufio"
	"os"
	"strconv"
)

var p []int

func f(x int) int {
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

func main() {
	rd := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	rdInt := func() int {
		n, c := 0, byte(0)
		for c, _ = rd.ReadByte(); c == ' ' || c == '\n' || c == '\r'; c, _ = rd.ReadByte() {
		}
		for ; c >= '0' && c <= '9'; c, _ = rd.ReadByte() {
			n = n*10 + int(c-'0')
		}
		return n
	}
	n, m := rdInt(), rdInt()
	p = make([]int, n+1)
	for i := range p {
		p[i] = i
	}
	g := n
	for ; m > 0; m-- {
		a, b := f(rdInt()), f(rdInt())
		if a != b {
			p[a] = b
			g--
		}
		w.WriteString(strconv.Itoa(g))
		w.WriteByte('\n')
	}
}
