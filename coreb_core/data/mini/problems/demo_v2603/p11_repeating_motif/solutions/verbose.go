package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// repeatsWithPeriod reports whether text is made of copies of its first period characters.
func repeatsWithPeriod(text string, period int) bool {
	for index := period; index < len(text); index++ {
		if text[index] != text[index-period] {
			return false
		}
	}
	return true
}

// smallestRepeatingUnit tries every divisor of the length in increasing order.
func smallestRepeatingUnit(text string) int {
	length := len(text)
	for period := 1; period <= length; period++ {
		if length%period == 0 && repeatsWithPeriod(text, period) {
			return period
		}
	}
	return length
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	line, _ := reader.ReadString('\n')
	pattern := strings.TrimSpace(line)
	fmt.Println(smallestRepeatingUnit(pattern))
}
