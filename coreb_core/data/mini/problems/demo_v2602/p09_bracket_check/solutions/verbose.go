package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// openerFor maps each closing bracket to the opening bracket it must match.
var openerFor = map[rune]rune{')': '(', ']': '[', '}': '{'}

// isBalanced reports whether every bracket is closed by its own kind in nesting order.
func isBalanced(sequence string) bool {
	pending := make([]rune, 0, len(sequence))
	for _, symbol := range sequence {
		expected, isCloser := openerFor[symbol]
		if !isCloser {
			pending = append(pending, symbol)
			continue
		}
		if len(pending) == 0 || pending[len(pending)-1] != expected {
			return false
		}
		pending = pending[:len(pending)-1]
	}
	return len(pending) == 0
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	line, _ := reader.ReadString('\n')
	sequence := strings.TrimSpace(line)
	if isBalanced(sequence) {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
