package trace_test

import (
	"context"
	"fmt"
	"strings"

	"memwall/engine/sim"
	"memwall/engine/trace"
)

// A trace in memwall's plain format, replayed through the simulator: two
// reads of one 64-byte line and a write to a line far away.
func ExampleReplay() {
	const text = `# R|W address size
R 0x1000 4
R 0x1004 4
W 0x200000 8
`
	s, _ := sim.New(sim.Config{Line: 64, Lines: 1024, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	r := trace.NewReader(strings.NewReader(text), trace.Plain, 1<<20)
	st, err := trace.Replay(context.Background(), s, nil, r, 0, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := s.Counts()
	fmt.Println("records:", st.Records)
	fmt.Println("hits, misses, write-backs:", c.Hits, c.Misses, c.Writebacks)
	fmt.Printf("%.1f ns\n", s.Seconds()*1e9)
	// Output:
	// records: 3
	// hits, misses, write-backs: 1 2 1
	// 202.1 ns
}

// A bad line is reported with its number.
func ExampleReader_Next() {
	r := trace.NewReader(strings.NewReader("R 0x10 4\nX 0x20 4\n"), trace.Plain, 1<<20)
	for {
		_, err := r.Next()
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// line 2: access kind must be R or W; got "X"
}
