package measure

import (
	"context"
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// The heaps' sizes: the small one within half the first level (4095 keys
// at most), the large one the complete heap of at least eight times the
// last cache, or the largest the keys hold.
func TestWalkHeapSizes(t *testing.T) {
	for _, c := range []struct {
		l1   int64
		want int
	}{
		{32 << 10, 4095}, // 2^12 keys: 16 KiB, half of 32 KiB
		{16 << 10, 2047}, // 2^11 keys: 8 KiB
		{48 << 10, 4095}, // 2^12 keys within 24 KiB is 2^12 (16 KiB), capped
		{1 << 10, 127},   // at least 2^7 − 1
	} {
		if got := walkSmallHeap(c.l1); got != c.want {
			t.Errorf("walkSmallHeap(%d) = %d, want %d", c.l1, got, c.want)
		}
	}
	for _, c := range []struct {
		c    int64
		keys int
		want int
	}{
		{12 << 20, 64 << 20, 1<<25 - 1}, // 8·12 MiB = 96 MiB: 2^25 keys (128 MiB)
		{16 << 20, 64 << 20, 1<<25 - 1}, // exactly 128 MiB
		{17 << 20, 64 << 20, 1<<26 - 1}, // 136 MiB: 2^26 keys
		{64 << 20, 64 << 20, 1<<26 - 1}, // 512 MiB wanted, 256 MiB of keys held
		{1 << 20, 1 << 30, 1<<21 - 1},   // 2^21 keys are 8 MiB
	} {
		if got := walkLargeHeap(c.c, c.keys); got != c.want {
			t.Errorf("walkLargeHeap(%d, %d) = %d, want %d", c.c, c.keys, got, c.want)
		}
	}
}

// setWalkInFlight reads each round's walk against the median step
// through hier.WalkInFlightOf: on the two-level machine of the hier
// tests (L1 32 KiB at 1 ns, L2 1 MiB at 4 ns and 32 GB/s, memory 100 ns),
// a walk down 2^20 − 1 keys (19 steps of 5 ns) has 7 depths' 3 ns steps
// past L1 and 2 depths' 96 ns steps past L2 (both a key short of it,
// log2((2^20 − 1)·4/2^15) = 7 − 1.4e-6), with L2's write-backs 2 ns
// each. The first line past each level waits in full, 99 ns, the 6 + 1
// below them 114 ns shared: walks of 95 + 4 + 99 + 114/k ns for k = 2, 2
// and 1 give 2 lines in flight, the median, and a spread.
func TestSetWalkInFlight(t *testing.T) {
	m := machine.Machine{Beta1: 32e9, Beta2: 8e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9,
		Spread: map[string]float64{}, Notes: map[string]string{}}
	m = m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 8e9, Latency: 4e-9},
	})
	walk := func(k float64) float64 { return (95 + 4 + 99 + 114/k) * 1e-9 }
	r := WalkResult{Keys: 1<<20 - 1, Steps: 19,
		PerWalk: Summarize([]float64{walk(2), walk(2), walk(1)}), PerStep: Summarize([]float64{5e-9, 5e-9, 5e-9})}
	if why := setWalkInFlight(&m, r); why != "" || math.Abs(m.WalkInFlight-2) > 1e-3 || m.Notes["walk_in_flight"] == "" {
		t.Errorf("walk_in_flight %g (note %q, why %q), want 2", m.WalkInFlight, m.Notes["walk_in_flight"], why)
	}
	if s := m.Spread["walk_in_flight"]; !(s > 0) {
		t.Errorf("spread %g, want above 0 from rounds of 2, 2 and 1", s)
	}
	// Each round against its own chase: memory at 148 ns in the third
	// round makes L2's step 144 ns there, the first lines 147 ns and
	// those below 162, and its walk of 312 ns keeps 162/66 = 2.45 lines
	// in flight; the median is still 2.
	r.MemLatency = Summarize([]float64{100e-9, 100e-9, 148e-9})
	m3 := m
	m3.Spread, m3.Notes = map[string]float64{}, map[string]string{}
	setWalkInFlight(&m3, r)
	if math.Abs(m3.WalkInFlight-2) > 1e-3 || !strings.Contains(m3.Notes["walk_in_flight"], "a chase over as many bytes beside it, 100 ns") {
		t.Errorf("with the rounds' chases: walk_in_flight %g, note %q", m3.WalkInFlight, m3.Notes["walk_in_flight"])
	}
	// Walks that do not wait for their first lines in full in most
	// rounds (198 ns is the steps, write-backs and first lines alone)
	// leave the machine as it was, and say why.
	for _, walks := range [][]float64{{90e-9}, {196e-9, 190e-9, walk(2)}} {
		m2 := m
		m2.WalkInFlight = 0
		why := setWalkInFlight(&m2, WalkResult{Keys: 1<<20 - 1, Steps: 19, PerWalk: Summarize(walks), PerStep: Summarize([]float64{5e-9})})
		if m2.WalkInFlight != 0 || !strings.Contains(why, "walk_in_flight not set") {
			t.Errorf("walks %v set walk_in_flight %g (why %q)", walks, m2.WalkInFlight, why)
		}
	}
}

// walkRounds walks a complete heap of eight times the cache, root to
// leaf, and leaves it a heap: every key at most its parent's.
func TestWalkRounds(t *testing.T) {
	buf := make([]uint64, 1<<19) // 4 MiB: 2^20 keys
	r, err := walkRounds(context.Background(), buf, 32<<10, 128<<10, 2)
	if err != nil {
		t.Fatal(err)
	}
	// 8 · 128 KiB = 1 MiB: 2^18 keys, a complete heap of 2^18 − 1, 17 steps.
	if r.Keys != 1<<18-1 || r.Steps != 17 || len(r.PerWalk.Samples) != 2 || !(r.PerWalk.Min > 0) || !(r.PerStep.Min > 0) || len(r.MemLatency.Samples) != 2 {
		t.Fatalf("walk %+v", r)
	}
	a := asKeys(buf)[:r.Keys]
	for i := 1; i < len(a); i++ {
		if a[i] > a[(i-1)/2] {
			t.Fatalf("key %d (%d) above its parent (%d): no heap after the walks", i, a[i], a[(i-1)/2])
		}
	}
}
