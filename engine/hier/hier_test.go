package hier

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/sim"
)

// TestOneLevelAgreesWithSim: engine/sim is a fully associative LRU
// write-back cache too, so a one-level hierarchy of the same cache has the
// same misses and write-backs on the same trace, and the same counts as
// the paper's machine gives through ConfigFor.
func TestOneLevelAgreesWithSim(t *testing.T) {
	p4 := machine.Machine{Name: "p4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
	for _, c := range []struct {
		name string
		m    machine.Machine
	}{
		{"p4", p4},
		{"64 lines of 64 B", machine.Machine{Name: "small", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 64 * 64, B: 64, M: 5e-9}},
		{"3 lines of 32 B", machine.Machine{Name: "tiny", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 3 * 32, B: 32, M: 5e-9}},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed %d", c.name, seed), func(t *testing.T) {
				h, err := New(ConfigFor(c.m))
				if err != nil {
					t.Fatal(err)
				}
				s, err := sim.New(sim.ConfigFor(c.m, sim.Majority))
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range genTrace(seed+10, 20000) {
					if o.write {
						s.Write(o.addr)
						h.Write(o.addr)
					} else {
						s.Read(o.addr)
						h.Read(o.addr)
					}
				}
				s.Finish()
				h.Finish()
				sc, hc := s.Counts(), h.Levels()[0]
				if hc.Accesses != sc.Accesses || hc.Misses != sc.Misses || hc.Writebacks != sc.Writebacks {
					t.Errorf("hier: %d accesses, %d misses, %d write-backs; sim: %d, %d, %d",
						hc.Accesses, hc.Misses, hc.Writebacks, sc.Accesses, sc.Misses, sc.Writebacks)
				}
				if hc.Misses == 0 || hc.Writebacks == 0 || hc.Hits == 0 {
					t.Errorf("a weak trace: %+v", hc)
				}
			})
		}
	}
}

// TestAccessSplitsLines: an access that spans lines of the shortest line
// size is one access to each.
func TestAccessSplitsLines(t *testing.T) {
	levels := []machine.Level{lv("L1", 8*32, 32), lv("L2", 16*64, 64)}
	a, _ := New(Config{Levels: levels})
	b, _ := New(Config{Levels: levels})
	for i := uint64(0); i < 500; i++ {
		addr := 1<<20 + i*37%4096
		a.Access(addr, 40, i%3 == 0, i%5 == 0)
		first, last := addr/32, (addr+39)/32
		for l := first; l <= last; l++ {
			switch {
			case i%3 == 0:
				b.Access(l*32, 1, true, i%5 == 0)
			case i%5 == 0:
				b.ReadDependent(l * 32)
			default:
				b.Read(l * 32)
			}
		}
	}
	if ga, gb := fmt.Sprint(a.Levels()), fmt.Sprint(b.Levels()); ga != gb {
		t.Errorf("Access: %s\nline by line: %s", ga, gb)
	}
	r, w, d := a.Accesses()
	if r+w != a.Levels()[0].Accesses || d == 0 {
		t.Errorf("reads %d writes %d dependent %d; L1 accesses %d", r, w, d, a.Levels()[0].Accesses)
	}
	// At the top of the address space the access is clipped.
	a.Access(^uint64(0)-3, 16, false, false)
}

// TestDeterministic: the same trace gives the same counts, and Reset
// gives a fresh simulator.
func TestDeterministic(t *testing.T) {
	levels := testHierarchies[3].levels
	run := func(s *Sim) string {
		for _, o := range genTrace(7, 5000) {
			s.Access(o.addr, 4, o.write, o.dep)
		}
		s.Finish()
		return fmt.Sprint(s.Result(), s.Curves())
	}
	for _, curves := range []bool{false, true} {
		s, _ := New(Config{Levels: levels, Curves: curves})
		first := run(s)
		s2, _ := New(Config{Levels: levels, Curves: curves})
		if second := run(s2); second != first {
			t.Errorf("curves %v: two simulators differ", curves)
		}
		s.Reset()
		if again := run(s); again != first {
			t.Errorf("curves %v: Reset does not give a fresh simulator", curves)
		}
	}
}

// TestNothingAllocatesPerAccess: once every line of a trace has been seen
// (the table and the time line have grown to it), accesses, batches and
// Finish allocate nothing, compactions of the time line included.
func TestNothingAllocatesPerAccess(t *testing.T) {
	for _, h := range testHierarchies {
		for _, curves := range []bool{false, true} {
			testNothingAllocates(t, h.name, h.levels, curves)
		}
	}
}

// testNothingAllocates is TestNothingAllocatesPerAccess on one hierarchy.
func testNothingAllocates(t *testing.T, name string, levels []machine.Level, curves bool) {
	s, err := New(Config{Levels: levels, Curves: curves})
	if err != nil {
		t.Fatal(err)
	}
	trace := genTrace(3, 20000)
	ops := make([]uint64, len(trace))
	for i, o := range trace {
		ops[i] = o.addr &^ 3
		if o.write {
			ops[i] |= WriteBit
		}
		if o.dep {
			ops[i] |= DepBit
		}
	}
	run := func() {
		for _, o := range trace[:5000] {
			s.Access(o.addr, 4, o.write, o.dep)
		}
		s.Batch(ops)
		s.Finish()
	}
	run()
	if avg := testing.AllocsPerRun(20, run); avg != 0 {
		t.Errorf("%s, curves %v: %.1f allocations per run of %d accesses, want 0", name, curves, avg, 5000+len(ops))
	}
}

// TestTime checks the charging formula on a trace whose counts are
// known: a scan of 100 lines (one random fill, 99 sequential), written,
// then 10 dependent random reads far away.
func TestTime(t *testing.T) {
	levels := []machine.Level{
		{Name: "L1", Size: 4 * 64, Line: 64, Beta1: 100e9, Beta2: 50e9},
		{Name: "L2", Size: 16 * 64, Line: 64, Beta1: 20e9, Beta2: 5e9},
	}
	run := func(cfg Config) Result {
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint64(0); i < 100*16; i++ {
			s.Write(1<<20 + 4*i)
		}
		for i := uint64(0); i < 10; i++ {
			s.ReadDependent(1<<30 + i*1<<20)
		}
		s.Compute(3000)
		s.Finish()
		return s.Result()
	}
	r := run(Config{Levels: levels, MemLatency: 100e-9, ComputeRate: 1e9})
	for i, l := range r.Levels {
		c := l.Counts
		if c.Misses != 110 || c.SeqFills != 99 || c.RandFills != 11 || c.DependentRandFills != 10 || c.Writebacks != 100 || c.SeqWritebacks != 99 {
			t.Fatalf("level %d: %+v", i, c)
		}
	}
	// Fills: 99 sequential, 11 random; the 100 write-backs at line/β1
	// (posted writes); in L2, the last level, the 10 dependent random
	// fills at the latency instead.
	l1 := (99+100)*64/100e9 + 11*64/50e9
	l2 := (99+100)*64/20e9 + 1*64/5e9 + 10*100e-9
	want := l1 + l2 + 3000/1e9
	if math.Abs(r.Seconds-want) > 1e-12*want || math.Abs(r.Levels[1].Time.Latency-1e-6) > 1e-18 {
		t.Errorf("Seconds = %g, want %g; %+v", r.Seconds, want, r.Levels)
	}
	// With a memory latency curve the dependent fills wait its latency
	// at the run's footprint: 110 distinct lines of 64 B = 7040 B, the
	// geometric mean of the points at 3520 and 14 080 B, so half way
	// from 100 to 300 ns in log span: 200 ns each, 2 µs in all.
	curve := []machine.LatencyPoint{{Span: 3520, Latency: 100e-9}, {Span: 14080, Latency: 300e-9}}
	r2 := run(Config{Levels: levels, MemLatency: 100e-9, MemLatencyCurve: curve, ComputeRate: 1e9})
	if got := r2.Levels[1].Time.Latency; math.Abs(got-2e-6) > 1e-15 {
		t.Errorf("latency on the curve: %g, want 2 µs", got)
	}
	if want := want + 1e-6; math.Abs(r2.Seconds-want) > 1e-12*want {
		t.Errorf("on the curve: Seconds = %g, want %g", r2.Seconds, want)
	}
	// With the first level's fills beside the compute (1 ns a line,
	// κ = 0.5), L1's 99 + 100 + 1 independent lines take 200 ns against
	// 3 µs of compute: they add 0.5·200 ns, shared between its sequential
	// (199) and random (1) lines; its 10 dependent fills keep 64 B/β2
	// each (12.8 ns) and L2 is charged as before.
	r3 := run(Config{Levels: levels, MemLatency: 100e-9, ComputeRate: 1e9, L1Fill: 1e-9, L1Exposed: 0.5})
	if l := r3.Levels[0].Time; math.Abs(l.Seconds-112.8e-9) > 1e-18 || math.Abs(l.Random-(0.5e-9+12.8e-9)) > 1e-18 || !l.Overlapped {
		t.Errorf("overlapped L1: %+v, want 112.8 ns, 13.3 of it random", l)
	}
	if want := 112.8e-9 + l2 + 3000/1e9; math.Abs(r3.Seconds-want) > 1e-12*want {
		t.Errorf("overlapped: Seconds = %g, want %g", r3.Seconds, want)
	}
	// With the levels' transfers overlapping (ω), each line's steps but
	// its largest hide ω (HideLevels); here every line passes both levels:
	// L1's are 199 at 64 B/β1 (0.64 ns) and 1 at 64 B/β2 (1.28 ns),
	// 128.64 ns; L2's 199 at 3.2 ns and 1 at 12.8 ns, 649.6 ns, the
	// longest. The dependent fills are no part: L1's keep 12.8 ns, L2's
	// their latency. ω = 1 takes 128.64 ns off, ω = 0.5 half of it.
	for _, w := range []float64{1, 0.5} {
		r4 := run(Config{Levels: levels, MemLatency: 100e-9, ComputeRate: 1e9, LevelOverlap: w})
		hid := w * 128.64e-9
		if got := r4.Levels[0].Time; math.Abs(got.Hidden-hid) > 1e-18 || math.Abs(got.Seconds-(l1-hid)) > 1e-18 || got.Random < 12.8e-9-1e-18 {
			t.Errorf("ω = %g: L1 %+v, want %g hidden of %g", w, got, hid, l1)
		}
		if got := r4.Levels[1].Time; got.Hidden != 0 || math.Abs(got.Seconds-l2) > 1e-18 {
			t.Errorf("ω = %g: L2, the longest, %+v, want %g and nothing hidden", w, got, l2)
		}
		if want := want - hid; math.Abs(r4.Seconds-want) > 1e-12*want {
			t.Errorf("ω = %g: Seconds = %g, want %g", w, r4.Seconds, want)
		}
	}
	// Without a latency, the dependent fills are random fills like any.
	s2, _ := New(Config{Levels: levels})
	for i := uint64(0); i < 10; i++ {
		s2.ReadDependent(1<<30 + i*1<<20)
	}
	if got, want := s2.Result().Seconds, 10*64/50e9+10*64/5e9; math.Abs(got-want) > 1e-12*want {
		t.Errorf("no latency: %g, want %g", got, want)
	}
}

// TestCurve: misses fall as the cache grows, every access misses a cache
// of no lines, and only the first accesses miss one that holds every line.
func TestCurve(t *testing.T) {
	s, _ := New(Config{Levels: testHierarchies[3].levels, Curves: true})
	for _, o := range genTrace(5, 8000) {
		s.Access(o.addr, 4, o.write, o.dep)
	}
	for _, c := range s.Curves() {
		if c.Misses(0) != c.Accesses || c.Misses(int64(len(c.Hist))) != c.Cold || c.Accesses != 8000 {
			t.Errorf("line %d: %d accesses, misses(0) = %d, misses(∞) = %d, cold %d", c.Line, c.Accesses, c.Misses(0), c.Misses(int64(len(c.Hist))), c.Cold)
		}
		for n := int64(1); n < int64(len(c.Hist)); n++ {
			if c.Misses(n) > c.Misses(n-1) {
				t.Fatalf("line %d: misses rise from %d lines to %d", c.Line, n-1, n)
			}
		}
	}
}

func TestConfigValidate(t *testing.T) {
	good := testHierarchies[2].levels
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "levels: the hierarchy needs at least one cache level"},
		{Config{Levels: []machine.Level{lv("L1", 1024, 64), lv("L2", 512, 64)}}, "levels[1].size: a level must be larger than the level above it, levels[0] (1 KiB); got 512 B"},
		{Config{Levels: good, MemLatency: -1}, "mem_latency: must be 0 (not given) or up to 10 µs; got -1"},
		{Config{Levels: good, ComputeRate: math.NaN()}, "compute_rate: must be 0 (not given) or from 1000 to 10^15 operations per second; got NaN"},
		{Config{Levels: good, L1Fill: 1e-9}, "l1_exposed: the exposed share must be above 0 and at most 1"},
		{Config{Levels: good, L1Fill: -1, L1Exposed: 0.5}, "l1_fill: the first level's fill time must be 0 (not measured) or above 0"},
		{Config{Levels: good, LevelOverlap: 1.5}, "level_overlap: the levels' overlap must be from 0"},
		{Config{Levels: good, Window: 1}, "window: the region must be from 2 to 255 fills, or 0 for 64; got 1"},
	} {
		_, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
