package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

// familyKey returns the letters of word in sorted order; anagrams share a key.
func familyKey(word string) string {
	letters := strings.Split(word, "")
	sort.Strings(letters)
	return strings.Join(letters, "")
}

func readWords() []string {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	var wordCount int
	fmt.Sscan(scanner.Text(), &wordCount)
	words := make([]string, 0, wordCount)
	for len(words) < wordCount && scanner.Scan() {
		words = append(words, scanner.Text())
	}
	return words
}

func main() {
	familySize := make(map[string]int)
	for _, word := range readWords() {
		familySize[familyKey(word)]++
	}
	largestFamily := 0
	for _, size := range familySize {
		if size > largestFamily {
			largestFamily = size
		}
	}
	fmt.Println(len(familySize), largestFamily)
}
