package hier_test

import (
	"context"
	"fmt"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// Two scans of a 64 KiB array of 4-byte words through a 32 KiB L1 and a
// 256 KiB L2: the first scan misses both levels once a line (1024 lines,
// sequential fills but for the first), the second misses L1 again, since
// LRU evicted the array's start, and hits L2.
func Example() {
	m := machine.Machine{Name: "two levels", Mu1: 2, M: 5e-9, MemLatency: 80e-9}.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
		{Name: "L2", Size: 256 << 10, Line: 64, Beta1: 20e9, Beta2: 10e9},
	})
	c := hier.ConfigFor(m)
	c.Curves = true // for the miss curve at the end
	s, err := hier.New(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		for i := uint64(0); i < 16384; i++ {
			s.Read(1<<20 + 4*i)
		}
	}
	s.Finish()
	r := s.Result()
	for _, l := range r.Levels {
		c := l.Counts
		fmt.Printf("%s: %d accesses, %d misses (%d sequential), %.2f µs\n", l.Level.Name, c.Accesses, c.Misses, c.SeqFills, l.Time.Seconds*1e6)
	}
	curve := s.Curves()[0]
	fmt.Printf("a cache of 512 lines misses %d times, one of 1024 lines %d times\n", curve.Misses(512), curve.Misses(1024))
	// Output:
	// L1: 32768 accesses, 2048 misses (2046 sequential), 0.66 µs
	// L2: 2048 accesses, 1024 misses (1023 sequential), 3.28 µs
	// a cache of 512 lines misses 2048 times, one of 1024 lines 1024 times
}

// The permutation product of 16 four-byte elements through a machine of
// two levels: X, Y and Z lie in one 64-byte line each, so each level
// fills three lines and writes Z's back at the end; the MBRAM simulator,
// the paper's one cache (the last level), sees the same three misses.
func ExampleSimulateKernel() {
	m := machine.Machine{Name: "two levels", Mu1: 2, M: 5e-9, MemLatency: 80e-9}.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 20e9, Beta2: 10e9},
	})
	mb, h, err := hier.SimulateKernel(context.Background(), m, sim.Majority, "perm", mbram.DefaultParams(16), kernels.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("MBRAM: %d accesses, %d misses, %d write-backs\n", mb.Counts.Accesses, mb.Counts.Misses, mb.Counts.Writebacks)
	for _, l := range h.Levels {
		c := l.Counts
		fmt.Printf("%s: %d accesses, %d misses, %d write-backs\n", l.Level.Name, c.Accesses, c.Misses, c.Writebacks)
	}
	// Output:
	// MBRAM: 48 accesses, 3 misses, 1 write-backs
	// L1: 48 accesses, 3 misses, 1 write-backs
	// L2: 3 accesses, 3 misses, 1 write-backs
}

// The miss curve of two scans of a 4 KiB array of 64-byte lines (64
// lines), sampled a point a doubling: a cache of fewer than 64 lines
// misses every access of the second scan too (LRU evicts each line just
// before its reuse), one of 64 lines only the first scan's.
func ExampleCurve_Sample() {
	m := machine.Machine{Name: "one cache", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 1 << 20, B: 64, M: 5e-9}
	s, err := hier.NewWithCurves(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		for i := uint64(0); i < 64; i++ {
			s.Read(1<<20 + 64*i)
		}
	}
	for _, p := range s.Curves()[0].Sample(1).Points {
		fmt.Printf("%d lines (%d B): %d misses\n", p.Lines, p.Bytes, p.Misses)
	}
	// Output:
	// 1 lines (64 B): 128 misses
	// 2 lines (128 B): 128 misses
	// 4 lines (256 B): 128 misses
	// 8 lines (512 B): 128 misses
	// 16 lines (1024 B): 128 misses
	// 32 lines (2048 B): 128 misses
	// 64 lines (4096 B): 64 misses
}

// A phase that reads 1000 lines at random from the last cache (L3)
// while memory brings 100 more in, on a core whose levels' transfers
// overlap (ω = 1). Every read misses L1 and L2 (0.1 ns a line at L1's
// step, 0.3 at L2's); 100 go on to memory (8 ns). The 900 that stop at L3
// pay their L1 and L2 steps and hide the first behind the second; the
// 100 from memory hide both behind memory's step. The phase takes
// 900·0.3 + 100·8 = 1070 ns, where the longest level alone (memory's
// 800 ns) would have hidden the last cache's reads.
func ExampleHideLevels() {
	parts := []hier.LevelPart{
		{RandLines: 1000, Rand: 100e-9},
		{RandLines: 1000, Rand: 300e-9},
		{RandLines: 100, Rand: 800e-9},
	}
	hidden := hier.HideLevels(parts, 1)
	total := 0.0
	for i, p := range parts {
		fmt.Printf("level %d: %.0f of %.0f ns hidden\n", i+1, hidden[i]*1e9, p.Rand*1e9)
		total += p.Rand - hidden[i]
	}
	fmt.Printf("charged: %.0f ns\n", total*1e9)
	// Output:
	// level 1: 100 of 100 ns hidden
	// level 2: 30 of 300 ns hidden
	// level 3: 0 of 800 ns hidden
	// charged: 1070 ns
}
