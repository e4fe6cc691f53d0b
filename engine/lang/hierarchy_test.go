package lang

import (
	"context"
	"math"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/sim"
)

// twoLevels is a small current-style hierarchy: a 32 KiB L1 and a 1 MiB
// L2 of 64-byte lines, with memory's latency and a compute rate.
var twoLevels = machine.Machine{Name: "two levels", Mu1: 2, M: 5e-9, MemLatency: 80e-9, ComputeRate: 1e9}.WithLevels([]machine.Level{
	{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
	{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 20e9, Beta2: 10e9},
})

// chase walks a 256 KiB array of ints 16 elements (one 64-byte line) at a
// time, each index computed from the element just loaded, 16 times round.
const chase = `param N = 65536
int A[N] = seq();
j = 0;
for (i = 0; i < N; i++) {
	j = A[j] + 16;
	if (j >= N) j = j - N;
}
`

// TestHierarchyRunByHand runs the chase through the hierarchy simulator
// and checks every count and the time against a hand calculation. Its N
// reads visit the array's 4096 lines in order, 16 times over, and each is
// dependent (its index is the element the last one loaded):
//   - L1 holds 512 lines, fewer than a pass: every read misses. A fill
//     continues the stream of the line before it, except the first of
//     each pass (line 0 after line 4095): 16 random fills, N − 16
//     sequential, all dependent.
//   - L2 holds 16384 lines, the whole array: only the first pass misses,
//     4096 fills, the first random, the others sequential.
//   - Nothing is written, so there are no write-backs.
//   - The branch j >= N is taken once a pass, 16 times; the majority
//     predictor (not taken from the start) misses each. Every condition
//     is charged (the default): the loop test is taken N times, then
//     not, and the predictor misses its first test (a tie predicts not
//     taken) and its last: 18 mispredictions.
//
// Time: L1 (N−16)·64 B/200 GB/s + 16·64 B/100 GB/s; L2, the last level,
// 4095·64 B/20 GB/s and its one dependent random fill at the memory's
// 80 ns; the mispredictions 18·5 ns; and the operations at 10^9 a
// second: the N reads, the loop's N + 1 tests and the if's N, two
// operations each (test and branch), i++ and the + 16 each N times and
// the − N 16 times: N + 2(2N + 1) + 2N + 16 = 458 770.
func TestHierarchyRunByHand(t *testing.T) {
	p, err := Compile(chase)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Run(context.Background(), twoLevels, sim.Majority, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := r.Hierarchy
	if h == nil {
		t.Fatal("a machine with levels gave no hierarchy result")
	}
	const n = 65536
	want := []hier.LevelCounts{
		{Accesses: n, Hits: 0, Misses: n, DependentMisses: n, SeqFills: n - 16, RandFills: 16, DependentRandFills: 16},
		{Accesses: n, Hits: n - 4096, Misses: 4096, DependentMisses: 4096, SeqFills: 4095, RandFills: 1, DependentRandFills: 1},
	}
	for i, w := range want {
		if got := h.Levels[i].Counts; got != w {
			t.Errorf("%s: %+v, want %+v", h.Levels[i].Level.Name, got, w)
		}
	}
	if h.Dependent != n || r.Dependent != n {
		t.Errorf("dependent accesses: hierarchy %d, run %d; want %d", h.Dependent, r.Dependent, n)
	}
	if h.Mispredictions != 18 {
		t.Errorf("mispredictions %d, want 18", h.Mispredictions)
	}
	const ops = n + 2*(2*n+1) + 2*n + 16
	if h.Ops != ops {
		t.Errorf("operations %d, want %d", h.Ops, ops)
	}
	l1 := float64(n-16)*64/200e9 + 16*64/100e9
	l2 := 4095*64/20e9 + 80e-9
	wantSecs := l1 + l2 + 18*5e-9 + ops/1e9
	if math.Abs(h.Seconds-wantSecs) > 1e-12*wantSecs || math.Abs(h.Levels[0].Time.Seconds-l1) > 1e-12*l1 {
		t.Errorf("time %g s (L1 %g), want %g (L1 %g)", h.Seconds, h.Levels[0].Time.Seconds, wantSecs, l1)
	}
	if h.Note != "" {
		t.Errorf("a machine with a compute rate charges the operations, yet the note says %q", h.Note)
	}
	// Without a compute rate the operations are counted but not charged,
	// and the result says so.
	norate := twoLevels
	norate.ComputeRate = 0
	r, err = p.Run(context.Background(), norate, sim.Majority, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Hierarchy; h.Compute != 0 || h.Note != hier.NoRateNote || math.Abs(h.Seconds-(wantSecs-ops/1e9)) > 1e-12*wantSecs {
		t.Errorf("no compute rate: compute %g s, %g s in all, note %q", h.Compute, h.Seconds, h.Note)
	}
}

// TestHierarchyLeavesMBRAMAlone: the levels add the hierarchy's result
// and change nothing of the MBRAM simulator's, which is that of the same
// machine without its levels (the paper's one cache, C and B being the
// last level's); a machine without levels gets no hierarchy result.
func TestHierarchyLeavesMBRAMAlone(t *testing.T) {
	src := "param N = 2^16\nint X[N] = perm(), Y[N] = perm(), Z[N];\nfor (i = 0; i < N; i++) Z[i] = Y[X[i]];\n"
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	with, err := p.Run(context.Background(), twoLevels, sim.Majority, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	flat := twoLevels
	flat.Levels = nil
	without, err := p.Run(context.Background(), flat, sim.Majority, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if with.Counts != without.Counts || with.Seconds != without.Seconds {
		t.Errorf("MBRAM with levels %+v (%g s), without %+v (%g s)", with.Counts, with.Seconds, without.Counts, without.Seconds)
	}
	if without.Hierarchy != nil {
		t.Error("a machine without levels got a hierarchy result")
	}
	// The permutation product's reads of Y are not dependent, and each
	// level sees all 3N accesses at its first level.
	h := with.Hierarchy
	if h == nil || h.Dependent != 0 || h.Levels[0].Counts.Accesses != 3<<16 {
		t.Errorf("hierarchy result %+v", h)
	}
}

// TestMissCurveOfChase: the chase's miss curve, by hand, is a step: its
// 16 passes over 4096 lines miss a cache of fewer than 4096 lines on every
// read (LRU evicts each line just before its reuse), 65 536 times, and a
// cache of 4096 lines or more only on the first pass, 4096 times. On a
// machine with levels it gives each level's misses; on one of six numbers
// (an MBRAM cache of 2048 lines) the MBRAM simulator's, another program.
// The curve's run changes nothing else of either result.
func TestMissCurveOfChase(t *testing.T) {
	p, err := Compile(chase)
	if err != nil {
		t.Fatal(err)
	}
	six := machine.Machine{Name: "six numbers", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 128 << 10, B: 64, M: 5e-9}
	for _, m := range []machine.Machine{twoLevels, six} {
		plain, err := p.Run(context.Background(), m, sim.Majority, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Run(context.Background(), m, sim.Majority, Options{Seed: 1, MissCurve: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.MissCurves) != 1 || plain.MissCurves != nil {
			t.Fatalf("%s: %d curves with the option, %d without", m.Name, len(r.MissCurves), len(plain.MissCurves))
		}
		c := r.MissCurves[0]
		for _, pt := range c.Points {
			want := int64(65536)
			if pt.Lines >= 4096 {
				want = 4096
			}
			if pt.Misses != want {
				t.Errorf("%s: %d lines miss %d times, want %d", m.Name, pt.Lines, pt.Misses, want)
			}
		}
		if r.Counts != plain.Counts || (r.Hierarchy == nil) != (plain.Hierarchy == nil) || (r.Hierarchy != nil && r.Hierarchy.Seconds != plain.Hierarchy.Seconds) {
			t.Errorf("%s: the curve's run changed the results", m.Name)
		}
		if r.Hierarchy != nil {
			for _, l := range r.Hierarchy.Levels {
				if got, ok := c.At(l.Level.Size / l.Level.Line); !ok || got != l.Counts.Misses {
					t.Errorf("%s: the curve gives %d (%v), the level %d misses", l.Level.Name, got, ok, l.Counts.Misses)
				}
			}
		} else if got, ok := c.At(2048); !ok || got != r.Counts.Misses {
			t.Errorf("six numbers: the curve at C/B gives %d (%v), the MBRAM simulator %d misses", got, ok, r.Counts.Misses)
		}
	}
}
