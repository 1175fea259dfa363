package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

// event marks an interval opening (delta +1) or closing (delta -1) at a moment.
type event struct {
	moment int64
	delta  int
}

func readEvents() []event {
	reader := bufio.NewReader(os.Stdin)
	var intervalCount int
	fmt.Fscan(reader, &intervalCount)
	events := make([]event, 0, 2*intervalCount)
	for i := 0; i < intervalCount; i++ {
		var start, end int64
		fmt.Fscan(reader, &start, &end)
		events = append(events, event{start, +1}, event{end, -1})
	}
	return events
}

// peakOverlap sweeps the events; at equal moments openings go first because
// intervals sharing only an endpoint still overlap there.
func peakOverlap(events []event) int {
	sort.Slice(events, func(i, j int) bool {
		if events[i].moment != events[j].moment {
			return events[i].moment < events[j].moment
		}
		return events[i].delta > events[j].delta
	})
	active, mostActive := 0, 0
	for _, ev := range events {
		active += ev.delta
		if active > mostActive {
			mostActive = active
		}
	}
	return mostActive
}

func main() {
	fmt.Println(peakOverlap(readEvents()))
}
