package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	s, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	s = strings.TrimSpace(s)
	var o strings.Builder
	for i, j := 0, 0; i < len(s); i = j {
		for j = i; j < len(s) && s[j] == s[i]; j++ {
		}
		o.WriteByte(s[i])
		o.WriteString(strconv.Itoa(j - i))
	}
	fmt.Println(o.String())
}
