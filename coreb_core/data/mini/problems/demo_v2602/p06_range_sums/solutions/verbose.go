package main

import (
	"bufio"
	"os"
	"strconv"
)

// tokenReader hands out whitespace-separated integers from standard input.
type tokenReader struct {
	scanner *bufio.Scanner
}

func newTokenReader() *tokenReader {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<22)
	scanner.Split(bufio.ScanWords)
	return &tokenReader{scanner: scanner}
}

func (t *tokenReader) nextInt64() int64 {
	t.scanner.Scan()
	value, _ := strconv.ParseInt(t.scanner.Text(), 10, 64)
	return value
}

func main() {
	input := newTokenReader()
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()

	readingCount := int(input.nextInt64())
	questionCount := int(input.nextInt64())

	// runningTotal[i] = sum of the first i hourly readings.
	runningTotal := make([]int64, readingCount+1)
	for hour := 1; hour <= readingCount; hour++ {
		runningTotal[hour] = runningTotal[hour-1] + input.nextInt64()
	}

	for question := 0; question < questionCount; question++ {
		firstHour := int(input.nextInt64())
		lastHour := int(input.nextInt64())
		total := runningTotal[lastHour] - runningTotal[firstHour-1]
		writer.WriteString(strconv.FormatInt(total, 10))
		writer.WriteByte('\n')
	}
}
