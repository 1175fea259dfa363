package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"sort"
)

type order struct {
	duration     int64
	promisedTime int64
}

func readOrders() []order {
	reader := bufio.NewReader(os.Stdin)
	var count int
	fmt.Fscan(reader, &count)
	orders := make([]order, count)
	for i := range orders {
		fmt.Fscan(reader, &orders[i].duration, &orders[i].promisedTime)
	}
	return orders
}

// worstDelay serves orders by promised time (an exchange argument shows this is optimal)
// and returns the largest finishing time minus promised time.
func worstDelay(orders []order) int64 {
	sort.SliceStable(orders, func(a, b int) bool {
		return orders[a].promisedTime < orders[b].promisedTime
	})
	var clock int64
	worst := int64(math.MinInt64)
	for _, current := range orders {
		clock += current.duration
		if delay := clock - current.promisedTime; delay > worst {
			worst = delay
		}
	}
	return worst
}

func main() {
	fmt.Println(worstDelay(readOrders()))
}
