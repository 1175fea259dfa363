package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// run is one maximal block of equal letters.
type run struct {
	letter byte
	length int
}

// splitIntoRuns scans the message once and collects its runs in order.
func splitIntoRuns(message string) []run {
	var runs []run
	for index := 0; index < len(message); index++ {
		if len(runs) > 0 && runs[len(runs)-1].letter == message[index] {
			runs[len(runs)-1].length++
		} else {
			runs = append(runs, run{letter: message[index], length: 1})
		}
	}
	return runs
}

func encode(message string) string {
	var builder strings.Builder
	for _, r := range splitIntoRuns(message) {
		builder.WriteByte(r.letter)
		builder.WriteString(strconv.Itoa(r.length))
	}
	return builder.String()
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	line, _ := reader.ReadString('\n')
	message := strings.TrimSpace(line)
	fmt.Println(encode(message))
}
