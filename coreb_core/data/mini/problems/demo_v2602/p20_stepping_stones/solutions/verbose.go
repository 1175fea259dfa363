package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// minimumLeaps walks the stones once, remembering how far the current number of
// leaps reaches and how far one more leap could reach.
func minimumLeaps(leapLimits []int64) int {
	stoneCount := int64(len(leapLimits))
	leaps := 0
	currentReach := int64(0)
	farthestReach := int64(0)
	for stone := int64(0); stone < stoneCount-1; stone++ {
		candidate := stone + leapLimits[stone]
		if candidate > farthestReach {
			farthestReach = candidate
		}
		if stone == currentReach {
			// we must leap again before passing this stone
			if farthestReach <= stone {
				return -1
			}
			leaps++
			currentReach = farthestReach
		}
	}
	return leaps
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<22)
	scanner.Split(bufio.ScanWords)
	scanner.Scan()
	stoneCount, _ := strconv.Atoi(scanner.Text())
	leapLimits := make([]int64, stoneCount)
	for i := range leapLimits {
		scanner.Scan()
		leapLimits[i], _ = strconv.ParseInt(scanner.Text(), 10, 64)
	}
	fmt.Println(minimumLeaps(leapLimits))
}
