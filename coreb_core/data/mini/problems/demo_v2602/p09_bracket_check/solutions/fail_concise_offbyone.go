package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	var s string
	fmt.Fscan(bufio.NewReader(os.Stdin), &s)
	m := map[byte]byte{')': '(', ']': '[', '}': '{'}
	t := []byte{}
	for i := 0; i < len(s)-1; i++ {
		c := s[i]
		if o, ok := m[c]; ok {
			if len(t) == 0 || t[len(t)-1] != o {
				fmt.Println("NO")
				return
			}
			t = t[:len(t)-1]
		} else {
			t = append(t, c)
		}
	}
	if len(t) == 0 {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
