package main

import (
	"bufio"
	"os"
	"strconv"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var n int
	readInt := func() int {
		x, c := 0, byte(' ')
		for c == ' ' || c == '\n' || c == '\r' {
			c, _ = r.ReadByte()
		}
		for c >= '0' && c <= '9' {
			x = x*10 + int(c-'0')
			c, _ = r.ReadByte()
		}
		return x
	}
	n = readInt()
	a := make([]int, n)
	res := make([]int, n)
	s := []int{}
	for i := range a {
		a[i] = readInt()
		res[i] = -1
		for len(s) > 0 && a[s[len(s)-1]] < a[i] {
			res[s[len(s)-1]] = a[i]
			s = s[:len(s)-1]
		}
		s = append(s, i)
	}
	for i, v := range res {
		if i > 0 {
			w.WriteByte(' ')
		}
		w.WriteString(strconv.Itoa(v))
	}
	w.WriteByte('\n')
}
