package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var s, t string
	fmt.Fscan(r, &s, &t)
	k := -1
	if len(s) == len(t) {
		k = strings.Index(s+s, t)
	}
	if k < 0 {
		fmt.Println("NO")
	} else {
		fmt.Printf("YES\n%d\n", k)
	}
}
