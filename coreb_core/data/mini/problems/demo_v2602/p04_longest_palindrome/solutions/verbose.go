package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// expand returns the length of the widest palindrome centred between left and right.
func expand(text string, left, right int) int {
	for left >= 0 && right < len(text) && text[left] == text[right] {
		left--
		right++
	}
	return right - left - 1
}

func longestPalindrome(text string) int {
	best := 0
	for center := 0; center < len(text); center++ {
		oddLength := expand(text, center, center)
		evenLength := expand(text, center, center+1)
		if oddLength > best {
			best = oddLength
		}
		if evenLength > best {
			best = evenLength
		}
	}
	return best
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	line, _ := reader.ReadString('\n')
	ribbon := strings.TrimSpace(line)
	fmt.Println(longestPalindrome(ribbon))
}
