package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// simulator is what the conformance suite drives: the fast Sim and the
// reference refSim both satisfy it, so every hand-computed case checks
// both, and the random cases check one against the other.
type simulator interface {
	access(addr uint64, write bool)
	accessRange(addr, size uint64, write bool)
	branch(site int, taken bool)
	finish()
	counts() Counts
}

type fast struct{ *Sim }

func (f fast) access(addr uint64, write bool) {
	if write {
		f.Write(addr)
	} else {
		f.Read(addr)
	}
}
func (f fast) accessRange(addr, size uint64, write bool) { f.Access(addr, size, write) }
func (f fast) branch(site int, taken bool)               { f.Branch(site, taken) }
func (f fast) finish()                                   { f.Finish() }
func (f fast) counts() Counts                            { return f.Counts() }

func (r *refSim) counts() Counts { return r.c }

func implementations(t *testing.T, c Config) map[string]simulator {
	t.Helper()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]simulator{"fast": fast{s}, "reference": newRef(c)}
}

func cfg(line, lines int64, mu1, window int) Config {
	return Config{Line: line, Lines: lines, Mu1: mu1, Window: window, Beta1: 2e9, Beta2: 1e9, Mispredict: 1e-8}
}

type op struct {
	kind  byte // 'R', 'W', 'A' (range read), 'S' (range write), 'B' (branch)
	addr  uint64
	size  uint64
	taken bool
}

func reads(lines ...uint64) []op {
	var ops []op
	for _, l := range lines {
		ops = append(ops, op{kind: 'R', addr: l * 64})
	}
	return ops
}

func TestHandCounts(t *testing.T) {
	// Sequential scan: 256 reads of 4-byte words at 0, 4, ..., 1020 with
	// 64-byte lines and a 4-line cache: 16 lines, each filled once
	// (16 misses, 240 hits). Line 0 starts a stream (random), lines 1..15
	// continue it with one stream in the region (sequential). No writes.
	var scan []op
	for a := uint64(0); a < 1024; a += 4 {
		scan = append(scan, op{kind: 'R', addr: a})
	}
	// Write-allocate and write-back: writes to lines 0, 1, 2 in a 2-line
	// cache. Each write first fills its line (3 misses: random, seq, seq).
	// Filling line 2 evicts dirty line 0 (write-back, random like its
	// fill); Finish writes back lines 1 and 2 (sequential like their
	// fills). Sequential 2+2, random 1+1.
	wa := []op{{kind: 'W', addr: 0}, {kind: 'W', addr: 64}, {kind: 'W', addr: 128}}
	// Eviction order (LRU, not FIFO): lines 10, 20, 10, 30, 10, 20 in a
	// 2-line cache. 10 miss, 20 miss, 10 hit, 30 miss evicts 20 (least
	// recently used, though 10 came first), 10 hit, 20 miss. 4 misses,
	// 2 hits; no line is adjacent to another, all random.
	lru := reads(10, 20, 10, 30, 10, 20)
	// Stream limit, mu1 = 2, region 8: three streams interleaved (lines
	// 0.., 100.., 200.., ten each): every region holds 3 streams, so all
	// 30 fills are random. Two streams interleaved: the two stream starts
	// are random, the other 18 fills sequential.
	var three, two []op
	for i := uint64(0); i < 10; i++ {
		three = append(three, reads(i, 100+i, 200+i)...)
		two = append(two, reads(i, 100+i)...)
	}
	// Stream limit mu1 = 1, region 4: lines 0..4, a stray 500, lines 5..9.
	// 0 starts (random), 1..4 sequential (4). 500 starts its own stream
	// (random). 5, 6, 7 continue stream 0 but the region still holds 500:
	// two streams > mu1, random (3). 8, 9: region {5..8}, {6..9}, one
	// stream, sequential (2). Sequential 6, random 5.
	stray := reads(0, 1, 2, 3, 4, 500, 5, 6, 7, 8, 9)
	// Backward stream: lines 9, 8, ..., 0: 1 random start, 9 sequential.
	back := reads(9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
	// An 8-byte access at 60 spans lines 0 and 1: two accesses.
	span := []op{{kind: 'A', addr: 60, size: 8}}

	tests := []struct {
		name string
		c    Config
		ops  []op
		want Counts
	}{
		{"sequential scan", cfg(64, 4, 2, 8), scan, Counts{Accesses: 256, Reads: 256, Hits: 240, Misses: 16, SeqTransfers: 15, RandTransfers: 1}},
		{"write-allocate", cfg(64, 2, 2, 8), wa, Counts{Accesses: 3, Writes: 3, Misses: 3, Writebacks: 3, SeqTransfers: 4, RandTransfers: 2}},
		{"LRU eviction order", cfg(64, 2, 2, 8), lru, Counts{Accesses: 6, Reads: 6, Hits: 2, Misses: 4, RandTransfers: 4}},
		{"three streams, mu1 2", cfg(64, 4, 2, 8), three, Counts{Accesses: 30, Reads: 30, Misses: 30, RandTransfers: 30}},
		{"two streams, mu1 2", cfg(64, 4, 2, 8), two, Counts{Accesses: 20, Reads: 20, Misses: 20, SeqTransfers: 18, RandTransfers: 2}},
		{"three streams, mu1 3", cfg(64, 4, 3, 8), three, Counts{Accesses: 30, Reads: 30, Misses: 30, SeqTransfers: 27, RandTransfers: 3}},
		{"stray fill, mu1 1, region 4", cfg(64, 64, 1, 4), stray, Counts{Accesses: 11, Reads: 11, Misses: 11, SeqTransfers: 6, RandTransfers: 5}},
		{"backward stream", cfg(64, 4, 2, 8), back, Counts{Accesses: 10, Reads: 10, Misses: 10, SeqTransfers: 9, RandTransfers: 1}},
		{"access across a line", cfg(64, 4, 2, 8), span, Counts{Accesses: 2, Reads: 2, Misses: 2, SeqTransfers: 1, RandTransfers: 1}},
	}
	for _, tc := range tests {
		for name, s := range implementations(t, tc.c) {
			run(s, tc.ops)
			s.finish()
			if got := s.counts(); got != tc.want {
				t.Errorf("%s (%s):\n got %+v\nwant %+v", tc.name, name, got, tc.want)
			}
		}
	}
}

func run(s simulator, ops []op) {
	for _, o := range ops {
		switch o.kind {
		case 'R':
			s.access(o.addr, false)
		case 'W':
			s.access(o.addr, true)
		case 'A':
			s.accessRange(o.addr, o.size, false)
		case 'S':
			s.accessRange(o.addr, o.size, true)
		case 'B':
			s.branch(int(o.addr), o.taken)
		}
	}
}

func outcomes(site uint64, pattern string) []op {
	var ops []op
	for _, ch := range pattern {
		ops = append(ops, op{kind: 'B', addr: site, taken: ch == 'T'})
	}
	return ops
}

func TestBranchPatterns(t *testing.T) {
	rep := func(s string, n int) string {
		out := ""
		for i := 0; i < n; i++ {
			out += s
		}
		return out
	}
	tests := []struct {
		name     string
		pattern  string
		majority int64
		twoBit   int64
	}{
		// Loop branch taken 99 times then not: majority predicts not taken
		// on the first (tie), taken after: misses the first and the last
		// (2). 2-bit from 1 (weakly not taken): misses the first (->2),
		// then saturates at 3 and misses the exit: 2.
		{"loop", rep("T", 99) + "N", 2, 2},
		// 10 T, 5 N, 1 T. Majority: first T missed (tie), then the count
		// of T stays ahead through the five N (10 vs 5), all five missed,
		// last T hit: 6. 2-bit: first T missed (1->2), saturates at 3; N
		// missed (3->2), N missed (2->1), three N hit (1->0), T missed: 4.
		{"phase change", rep("T", 10) + rep("N", 5) + "T", 6, 4},
		// Alternation defeats both: majority alternates between tie
		// (predict N) and one ahead (predict T), always wrong: 6; 2-bit
		// oscillates between 1 and 2, always wrong: 6.
		{"alternating", "TNTNTN", 6, 6},
		// Never taken: majority and 2-bit predict not taken from the start.
		{"never", rep("N", 20), 0, 0},
	}
	for _, tc := range tests {
		for _, p := range []Predictor{Majority, TwoBit} {
			c := cfg(64, 4, 2, 8)
			c.Predictor = p
			want := tc.majority
			if p == TwoBit {
				want = tc.twoBit
			}
			for name, s := range implementations(t, c) {
				// the same pattern at two sites, interleaved: sites are
				// independent, so the counts double.
				a, b := outcomes(3, tc.pattern), outcomes(1000, tc.pattern)
				for i := range a {
					run(s, []op{a[i], b[i]})
				}
				got := s.counts()
				if got.Mispredictions != 2*want || got.Branches != int64(2*len(tc.pattern)) {
					t.Errorf("%s %v (%s): %d mispredictions of %d branches, want %d of %d",
						tc.name, p, name, got.Mispredictions, got.Branches, 2*want, 2*len(tc.pattern))
				}
			}
		}
	}
}

// TestAgainstReference runs many small random traces and parameters through
// both simulators and requires identical counts.
func TestAgainstReference(t *testing.T) {
	cases := 400
	if testing.Short() {
		cases = 100
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for tc := 0; tc < cases; tc++ {
		line := int64(4) << rng.IntN(5)
		lines := int64(1 + rng.IntN(12))
		mu1 := 1 + rng.IntN(3)
		window := 0
		if rng.IntN(2) == 0 {
			window = mu1 + 1 + rng.IntN(6)
		}
		c := cfg(line, lines, mu1, window)
		if rng.IntN(2) == 0 {
			c.Predictor = TwoBit
		}
		ops := randomOps(rng, line, 200+rng.IntN(800))
		f, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		r := newRef(c)
		run(fast{f}, ops)
		run(r, ops)
		mid1, mid2 := f.Counts(), r.c
		f.Finish()
		r.finish()
		if mid1 != mid2 || f.Counts() != r.c {
			t.Fatalf("case %d %+v:\nfast %+v\n ref %+v\n(before finish fast %+v ref %+v)", tc, c, f.Counts(), r.c, mid1, mid2)
		}
		if got, want := f.Seconds(), c.Seconds(r.c); got != want || math.IsNaN(got) {
			t.Fatalf("case %d: seconds %g, reference %g", tc, got, want)
		}
	}
}

// randomOps mixes sequential runs in both directions (so streams form and
// break), random lines from a small range (so lines are reused and
// evicted), accesses across lines and branches at a few sites.
func randomOps(rng *rand.Rand, line int64, n int) []op {
	var ops []op
	b := uint64(line)
	for len(ops) < n {
		switch rng.IntN(5) {
		case 0, 1: // a run of consecutive words
			start := uint64(rng.IntN(64)) * b
			step := uint64(4)
			cnt := 1 + rng.IntN(int(4*b))
			down := rng.IntN(3) == 0
			for i := 0; i < cnt; i++ {
				a := start + uint64(i)*step
				if down {
					a = start + 64*b - uint64(i)*step
				}
				ops = append(ops, op{kind: "RW"[rng.IntN(2)], addr: a})
			}
		case 2:
			for i := 0; i < 10; i++ {
				ops = append(ops, op{kind: "RW"[rng.IntN(2)], addr: uint64(rng.IntN(int(80 * b)))})
			}
		case 3:
			ops = append(ops, op{kind: "AS"[rng.IntN(2)], addr: uint64(rng.IntN(int(80 * b))), size: uint64(rng.IntN(int(3 * b)))})
		case 4:
			site := rng.IntN(5)
			p := rng.Float64()
			for i := 0; i < 20; i++ {
				ops = append(ops, op{kind: 'B', addr: uint64(site), taken: rng.Float64() < p})
			}
		}
	}
	return ops
}

func TestSecondsAndTerms(t *testing.T) {
	// Sequential scan above: 15 sequential, 1 random transfer of 64 B,
	// beta1 = 2 GB/s, beta2 = 1 GB/s: 15·64/2e9 + 64/1e9 = 544 ns.
	s, _ := New(cfg(64, 4, 2, 8))
	for a := uint64(0); a < 1024; a += 4 {
		s.Read(a)
	}
	s.Branch(0, true) // first execution, tie predicts not taken: 10 ns
	s.Finish()
	r := s.Result()
	want := 15*64/2e9 + 64/1e9 + 1e-8
	if math.Abs(r.Seconds-want) > 1e-18 {
		t.Errorf("seconds %g, want %g", r.Seconds, want)
	}
	if len(r.Terms) != 3 || r.Terms[0].Name != TermSequential || r.Terms[1].Name != TermRandom || r.Terms[2].Name != TermBranches {
		t.Errorf("terms %+v", r.Terms)
	}
	if sum := r.Terms[0].Seconds + r.Terms[1].Seconds + r.Terms[2].Seconds; sum != r.Seconds {
		t.Errorf("terms sum to %g, total %g", sum, r.Seconds)
	}
}

func TestPhases(t *testing.T) {
	s, _ := New(cfg(64, 4, 2, 8))
	s.Phase("a")
	s.Read(0)
	s.Read(64)
	s.Phase("b")
	s.Write(1000)
	s.Finish()
	r := s.Result()
	if len(r.Phases) != 2 || r.Phases[0].Counts.Misses != 2 || r.Phases[1].Counts.Misses != 1 || r.Phases[1].Counts.Writebacks != 1 {
		t.Fatalf("phases %+v", r.Phases)
	}
	if math.Abs(r.Phases[0].Seconds+r.Phases[1].Seconds-r.Seconds) > 1e-18 {
		t.Errorf("phase seconds do not add up")
	}
}

func TestSliceHookStops(t *testing.T) {
	s, _ := New(cfg(64, 4, 2, 8))
	calls := 0
	errStop := errors.New("stop")
	s.OnSlice(100, func(*Sim) error {
		calls++
		if calls == 3 {
			return errStop
		}
		return nil
	})
	defer func() {
		p, ok := recover().(*Stop)
		if !ok || !errors.Is(p.Err, errStop) {
			t.Fatalf("recovered %v, want *Stop", p)
		}
		// every access here is to a new line, so the hook fires after the
		// 100th, 200th and 300th access
		if got := s.Counts().Accesses; got != 300 {
			t.Errorf("stopped after %d accesses, want 300", got)
		}
	}()
	for a := uint64(0); ; a += 64 {
		s.Read(a)
	}
}

func TestConfigErrors(t *testing.T) {
	good := cfg(64, 4, 2, 0)
	bad := []struct {
		field string
		edit  func(*Config)
	}{
		{"line", func(c *Config) { c.Line = 48 }},
		{"line", func(c *Config) { c.Line = 2 }},
		{"cache", func(c *Config) { c.Lines = 0 }},
		{"mu1", func(c *Config) { c.Mu1 = 0 }},
		{"window", func(c *Config) { c.Window = 2 }},
		{"beta1", func(c *Config) { c.Beta1 = math.NaN() }},
		{"beta2", func(c *Config) { c.Beta2 = 0 }},
		{"mispredict", func(c *Config) { c.Mispredict = -1 }},
	}
	for _, b := range bad {
		c := good
		b.edit(&c)
		_, err := New(c)
		if err == nil || len(err.Error()) < len(b.field) || err.Error()[:len(b.field)] != b.field {
			t.Errorf("%s: got %v", b.field, err)
		}
	}
	if _, err := New(good); err != nil {
		t.Error(err)
	}
}

func TestResetIsFresh(t *testing.T) {
	s, _ := New(cfg(64, 4, 2, 8))
	ops := randomOps(rand.New(rand.NewPCG(5, 6)), 64, 500)
	run(fast{s}, ops)
	s.Finish()
	first := s.Counts()
	s.Reset()
	run(fast{s}, ops)
	s.Finish()
	if s.Counts() != first {
		t.Errorf("after Reset %+v, first run %+v", s.Counts(), first)
	}
}

func ExampleSim() {
	// Copy 1 KiB with 64-byte lines: two streams (read a, write b), 16
	// lines each. The first line of each is a stream start (random), the
	// other 30 fills are sequential; the 16 write-backs at the end are
	// charged like their fills (1 random, 15 sequential).
	m := Config{Line: 64, Lines: 4096, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9}
	s, _ := New(m)
	for i := uint64(0); i < 1024; i += 4 {
		s.Read(i)
		s.Write(1<<20 + i)
	}
	s.Finish()
	c := s.Counts()
	fmt.Println(c.Misses, c.Writebacks, c.SeqTransfers, c.RandTransfers)
	// Output: 32 16 45 3
}

// TestKernelPatternsAgainstReference drives both simulators with the
// access patterns of the kernels (the permutation product, a two-pointer
// partition, a three-array merge, a sift-down) at sizes many times the
// cache, where evictions, write-backs and the stream rule all matter.
func TestKernelPatternsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 3000
	perm := rng.Perm(n)
	var patterns = map[string][]op{}
	var ops []op
	for i := 0; i < n; i++ { // Z[i] = Y[X[i]]
		ops = append(ops, op{kind: 'R', addr: uint64(i) * 4}, op{kind: 'R', addr: 1<<20 + uint64(perm[i])*4}, op{kind: 'W', addr: 2<<20 + uint64(i)*4})
	}
	patterns["perm"] = ops
	ops = nil
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 { // partition: two ends inwards
		ops = append(ops, op{kind: 'R', addr: uint64(i) * 4}, op{kind: 'R', addr: uint64(j) * 4})
		if rng.IntN(2) == 0 {
			ops = append(ops, op{kind: 'W', addr: uint64(i) * 4}, op{kind: 'W', addr: uint64(j) * 4}, op{kind: 'B', addr: 1, taken: true})
		} else {
			ops = append(ops, op{kind: 'B', addr: 1})
		}
	}
	patterns["partition"] = ops
	ops = nil
	for i, j, k := 0, 0, 0; k < 2*n; k++ { // merge two runs into a third array
		if j >= n || (i < n && rng.IntN(2) == 0) {
			ops = append(ops, op{kind: 'R', addr: uint64(i) * 4}, op{kind: 'B', addr: 2, taken: true})
			i++
		} else {
			ops = append(ops, op{kind: 'R', addr: 1<<20 + uint64(j)*4}, op{kind: 'B', addr: 2})
			j++
		}
		ops = append(ops, op{kind: 'W', addr: 2<<20 + uint64(k)*4})
	}
	patterns["merge"] = ops
	ops = nil
	for r := 0; r < 300; r++ { // sift-down from the root of a heap of n keys
		for node := 0; 2*node+1 < n; node = 2*node + 1 + rng.IntN(2) {
			ops = append(ops, op{kind: 'R', addr: uint64(2*node+1) * 4}, op{kind: 'R', addr: uint64(2*node+2) * 4}, op{kind: 'W', addr: uint64(node) * 4}, op{kind: 'B', addr: 3, taken: rng.IntN(4) != 0})
		}
	}
	patterns["siftdown"] = ops
	for name, ops := range patterns {
		for _, c := range []Config{cfg(64, 16, 2, 0), cfg(32, 64, 1, 3), cfg(128, 8, 3, 12)} {
			f, _ := New(c)
			r := newRef(c)
			run(fast{f}, ops)
			run(r, ops)
			f.Finish()
			r.finish()
			if f.Counts() != r.c {
				t.Errorf("%s %+v:\nfast %+v\n ref %+v", name, c, f.Counts(), r.c)
			}
		}
	}
}
