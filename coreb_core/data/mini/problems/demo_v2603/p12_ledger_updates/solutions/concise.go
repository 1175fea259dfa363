package main

import (
	"bufio"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Split(bufio.ScanWords)
	rd := func() int64 { sc.Scan(); v, _ := strconv.ParseInt(sc.Text(), 10, 64); return v }
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	n, q := int(rd()), int(rd())
	a := make([]int64, n+1)
	t := make([]int64, n+1)
	for i := 1; i <= n; i++ {
		a[i] = rd()
		for j := i; j <= n; j += j & -j {
			t[j] += a[i]
		}
	}
	s := func(i int) (r int64) {
		for ; i > 0; i -= i & -i {
			r += t[i]
		}
		return
	}
	for ; q > 0; q-- {
		c, x, y := rd(), int(rd()), rd()
		if c == 1 {
			v := y - a[x]
			a[x] = y
			for j := x; j <= n; j += j & -j {
				t[j] += v
			}
		} else {
			w.WriteString(strconv.FormatInt(s(int(y))-s(x-1), 10))
			w.WriteByte('\n')
		}
	}
}
