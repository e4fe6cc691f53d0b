package hier

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

// twoLevels is a small hierarchy with round numbers for hand calculations:
// a 32 KiB L1 and a 1 MiB L2 of 64-byte lines, latencies 1, 4 and 100 ns.
func twoLevels() machine.Machine {
	m := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9, ComputeRate: 1e10}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 4e-9},
	})
}

// TestModelLatencyCurve: on a machine with a memory latency curve the
// dependent lines from memory wait its latency at the kernel's data.
// Heapsort of 2^20 keys is the hand calculation below with the curve
// 196 ns at 2 MiB and 300 ns at 8 MiB: the heap's 4 MiB read half way,
// 248 ns, so L2's 2·N dependent lines take a quarter of 248 − 4 ns,
// 61 ns, where the one number (100 ns) gave 24: 2·N·37 ns = 77.594624 ms
// more. A curve that gives 100 ns at 4 MiB changes nothing.
func TestModelLatencyCurve(t *testing.T) {
	const base = 25.165824e-3 + 57.67168e-3 + 9.17504e-3 + 54.525952e-3
	for _, c := range []struct {
		name  string
		curve []machine.LatencyPoint
		want  float64
		lat   float64
	}{
		{"steeper", []machine.LatencyPoint{{Span: 2 << 20, Latency: 196e-9}, {Span: 8 << 20, Latency: 300e-9}}, base + 77.594624e-3, 248e-9},
		{"100 ns at the heap", []machine.LatencyPoint{{Span: 1 << 20, Latency: 52e-9}, {Span: 16 << 20, Latency: 148e-9}}, base, 100e-9},
	} {
		m := twoLevels()
		m.MemLatencyCurve = c.curve
		e, err := Model(m, "heapsort", mbram.Params{N: 1 << 20, W: 4})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Seconds-c.want) > 1e-9*c.want || math.Abs(e.MemLatency-c.lat) > 1e-18 {
			t.Errorf("%s: %g s at %g, want %g s at %g", c.name, e.Seconds, e.MemLatency, c.want, c.lat)
		}
	}
}

func TestModelHandCalculations(t *testing.T) {
	m := twoLevels()
	for _, c := range []struct {
		name   string
		kernel string
		n      int64
		want   float64
	}{
		// Quicksort of 2^12 keys (16 KiB) fits in L1: no lines move; work
		// 7·N·log2 N + 24·N = 7·4096·12 + 24·4096 = 442 368 ops at 1e10/s
		// = 44.2368 µs, mispredictions (N/2)·log2 N = 24 576 at 5 ns =
		// 122.88 µs.
		{"quicksort in L1", "quicksort", 1 << 12, 44.2368e-6 + 122.88e-6},
		// Quicksort of 2^16 keys (256 KiB): past L1 (32 KiB), in L2.
		// Passes through L1: log2(256/32) + 1 = 4, each 2·4096 lines
		// (read, write back) at 64 B / 128 GB/s = 0.5 ns: 16.384 µs.
		// Work 7·65536·16 + 24·65536 = 8 912 896 ops: 891.2896 µs;
		// mispredictions 32768·16 = 524 288 at 5 ns: 2.62144 ms.
		{"quicksort in L2", "quicksort", 1 << 16, 16.384e-6 + 891.2896e-6 + 2.62144e-3},
		// Heapsort of 2^20 keys (4 MiB). Steps N·(20 − 1) + N = 20·N.
		// Work 12·20·N ops = 25.165824 ms; mispredictions 10·N + N =
		// 11·N at 5 ns = 57.67168 ms. L1 keeps log2(32 KiB/4) = 13 heap
		// levels: 7 missed a walk, each a dependent line (a quarter of
		// the 4 − 1 ns step, log2(64/4) = 4 lines in flight: 0.75 ns)
		// and a write-back, posted (64 B / 128 GB/s = 0.5 ns): 7·N·1.25 ns
		// = 9.17504 ms. L2 keeps 18 levels: 2 missed, a quarter of
		// 100 − 4 ns = 24 ns and 64 B / 32 GB/s = 2 ns: 2·N·26 ns =
		// 54.525952 ms.
		{"heapsort beyond L2", "heapsort", 1 << 20, 25.165824e-3 + 57.67168e-3 + 9.17504e-3 + 54.525952e-3},
		// Radix-count of 2^18 keys, b = 64: 3 digits; 2·N·4 B = 2 MiB
		// passes both levels. Work 14·3·N = 11 010 048 ops: 1.1010048 ms.
		// Per digit per level: count reads N·4/64 = 16384 lines, the
		// distribution reads 16384, fills 16384 random (65 streams > 16)
		// and writes them back (posted: at β1); 3 digits and a copy back
		// (3 is odd: 16384 read + 32768 written, sequential). L1: seq
		// 3·49152 + 49152 = 196 608 at 0.5 ns, random 49 152 at 1 ns:
		// 147.456 µs. L2: seq at 2 ns, random at 4 ns: 589.824 µs.
		{"radix-count", "radix-count", 1 << 18, 1.1010048e-3 + 147.456e-6 + 589.824e-6},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Model(m, c.kernel, mbram.DefaultParams(c.n))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(e.Seconds-c.want) > 1e-9*c.want+1e-12 {
				t.Errorf("%s: %.9g s, want %.9g s (levels %+v)", c.kernel, e.Seconds, c.want, e.Levels)
			}
		})
	}
}

// On a machine that says how its first level's fills and the core's work
// overlap, the first level is charged what its fills add to the work,
// max(W, F) + κ·min(W, F) − W, and the other levels as before.
func TestModelFirstLevelOverlap(t *testing.T) {
	// Overlap by hand: 10 and 16 µs with κ = 0.25 take 16 + 2.5; with
	// κ = 1 the sum, with κ = 0 the longer.
	for _, c := range []struct{ a, b, k, want float64 }{
		{10e-6, 16e-6, 0.25, 18.5e-6}, {16e-6, 10e-6, 0.25, 18.5e-6}, {10e-6, 16e-6, 1, 26e-6}, {10e-6, 16e-6, 0, 16e-6}, {0, 16e-6, 0.5, 16e-6},
	} {
		if got := Overlap(c.a, c.b, c.k); math.Abs(got-c.want) > 1e-18 {
			t.Errorf("Overlap(%g, %g, %g) = %g, want %g", c.a, c.b, c.k, got, c.want)
		}
	}
	// The permutation product of 2^14 elements of 4 bytes (192 KiB)
	// past L1 (32 KiB), in L2. Work 6·16384 ops at 1e10/s: W = 9.8304 µs.
	// With 1 ns a line and κ = 0.2, its L1 lines L (the model's own
	// traffic, read back) take F = L·1 ns and add max(W, F) + 0.2·min(W, F) − W.
	m := twoLevels()
	p := mbram.DefaultParams(1 << 14)
	p.W = 4
	plain, err := Model(m, "perm", p)
	if err != nil {
		t.Fatal(err)
	}
	m.L1Fill, m.L1Exposed = 1e-9, 0.2
	over, err := Model(m, "perm", p)
	if err != nil {
		t.Fatal(err)
	}
	tr := over.Levels[0].Traffic
	lines := tr.Seq + tr.Rand
	// About 1024 lines of X, 1024 of Z and most of Y's 16384 reads: F
	// exceeds W.
	if lines < 10000 || lines > 20000 || math.Abs(over.Compute-9.8304e-6) > 1e-15 {
		t.Fatalf("L1 lines %g, compute %g", lines, over.Compute)
	}
	f := lines * 1e-9
	wantL1 := f + 0.2*9.8304e-6 - 9.8304e-6
	if got := over.Levels[0].Seconds; math.Abs(got-wantL1) > 1e-9*wantL1 || !over.Levels[0].Overlapped {
		t.Errorf("L1 charged %g s, want %g", got, wantL1)
	}
	if got, want := over.Seconds, plain.Seconds-plain.Levels[0].Seconds+wantL1; math.Abs(got-want) > 1e-9*want {
		t.Errorf("total %g s, want %g (the other terms as without the overlap)", got, want)
	}
}

// A kernel's own core rate replaces the machine's compute rate.
// On a machine whose levels' transfers overlap (ω), each line's steps
// through the levels but its largest hide ω; lines that stop at different
// levels add; the dependent lines and the core's work do not hide.
func TestModelLevelOverlap(t *testing.T) {
	// HideLevels by hand. Three levels' random reads: 100 fill L1 at
	// 0.02 s each, 50 of them fill L2 at 0.06 and 10 of those L3 at 0.8.
	// 50 end at L1 and hide nothing; 40 end at L2 and hide their L1 step
	// (0.8 s); 10 go to L3 and hide their L1 and L2 steps (0.2 and 0.6):
	// charged 1 + 2.4 + 8 = 11.4 s, as 50·0.02 + 40·0.06 + 10·0.8.
	random := []LevelPart{{RandLines: 100, Rand: 2}, {RandLines: 50, Rand: 3}, {RandLines: 10, Rand: 8}}
	// A stream through two levels (10 lines, 1 s and 3 s) and 100
	// random reads of L1 alone (2 s): the stream's L1 step hides behind
	// its L2 step, the random reads are other lines and hide nothing.
	mixed := []LevelPart{{SeqLines: 10, Seq: 1, RandLines: 100, Rand: 2}, {SeqLines: 10, Seq: 3}}
	for _, c := range []struct {
		parts []LevelPart
		omega float64
		want  []float64
	}{
		// Streams through every level: all but the longest level's hide.
		{[]LevelPart{{SeqLines: 10, Seq: 1}, {SeqLines: 10, Seq: 3}, {SeqLines: 10, Seq: 2}}, 1, []float64{1, 0, 2}},
		{[]LevelPart{{SeqLines: 10, Seq: 1}, {SeqLines: 10, Seq: 3}, {SeqLines: 10, Seq: 2}}, 0.5, []float64{0.5, 0, 1}},
		{[]LevelPart{{SeqLines: 4, Seq: 2}, {SeqLines: 4, Seq: 2}}, 1, []float64{0, 2}},
		{random, 1, []float64{1, 0.6, 0}},
		{random, 0.5, []float64{0.5, 0.3, 0}},
		{mixed, 1, []float64{1, 0}},
		// More lines below than above: the surplus passes one level.
		{[]LevelPart{{RandLines: 10, Rand: 1}, {RandLines: 20, Rand: 4}}, 1, []float64{1, 0}},
		{[]LevelPart{{SeqLines: 0, Seq: 0}, {SeqLines: 5, Seq: 5}}, 1, []float64{0, 0}},
		{mixed, 0, nil},
		{mixed[:1], 1, nil},
	} {
		got := HideLevels(c.parts, c.omega)
		if len(got) != len(c.want) {
			t.Fatalf("HideLevels(%v, %g) = %v, want %v", c.parts, c.omega, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("HideLevels(%v, %g) = %v, want %v", c.parts, c.omega, got, c.want)
			}
		}
	}
	// The hand calculations of TestModelHandCalculations again.
	// Radix-count of 2^18 keys: L1's lines take 147.456 µs and L2's
	// 589.824 µs, all independent; ω = 1 hides L1's, ω = 0.5 half.
	// Heapsort of 2^20 keys: L1's independent lines are its 7·N
	// write-backs at 0.5 ns, L2's its 2·N at 2 ns; the 2·N that L2
	// writes back passed L1 too, and hide their L1 step there (2·N·0.5 ns,
	// 1.048576 ms); the other 5·N end at L2 and hide nothing, nor do the
	// dependent lines (5.505024 and 50.331648 ms).
	m := twoLevels()
	for _, c := range []struct {
		kernel string
		n      int64
		omega  float64
		base   float64
		hidden float64
	}{
		{"radix-count", 1 << 18, 1, 1.1010048e-3 + 147.456e-6 + 589.824e-6, 147.456e-6},
		{"radix-count", 1 << 18, 0.5, 1.1010048e-3 + 147.456e-6 + 589.824e-6, 73.728e-6},
		{"heapsort", 1 << 20, 1, 25.165824e-3 + 57.67168e-3 + 9.17504e-3 + 54.525952e-3, 1.048576e-3},
	} {
		m.LevelOverlap = c.omega
		e, err := Model(m, c.kernel, mbram.DefaultParams(c.n))
		if err != nil {
			t.Fatal(err)
		}
		if want := c.base - c.hidden; math.Abs(e.Seconds-want) > 1e-9*want || math.Abs(e.LevelHidden-c.hidden) > 1e-9*c.hidden {
			t.Errorf("%s, ω = %g: %.9g s with %.9g hidden, want %.9g and %.9g", c.kernel, c.omega, e.Seconds, e.LevelHidden, want, c.hidden)
		}
		if h := e.Levels[0].Hidden; math.Abs(h-c.hidden) > 1e-9*c.hidden || e.Levels[1].Hidden != 0 {
			t.Errorf("%s, ω = %g: hidden by level %g, %g; want %g, 0", c.kernel, c.omega, h, e.Levels[1].Hidden, c.hidden)
		}
		b, err := Predict(m, c.kernel, mbram.DefaultParams(c.n))
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, term := range b.Terms {
			if term.Seconds < 0 {
				t.Errorf("%s: term %s is negative: %g", c.kernel, term.Name, term.Seconds)
			}
			sum += term.Seconds
		}
		if math.Abs(sum-b.Seconds) > 1e-9*b.Seconds || !strings.Contains(b.Terms[len(b.Terms)-2].Formula, "hidden behind the same lines' slower steps") {
			t.Errorf("%s: terms sum to %g, total %g; L1's formula %q", c.kernel, sum, b.Seconds, b.Terms[len(b.Terms)-2].Formula)
		}
	}
}

func TestModelUsesCoreRate(t *testing.T) {
	m := twoLevels()
	base, _ := Model(m, "perm", mbram.DefaultParams(1<<10))
	m.CoreRates = map[string]float64{"perm": 2e10}
	fast, _ := Model(m, "perm", mbram.DefaultParams(1<<10))
	// 6·1024 ops: 614.4 ns at 1e10/s, 307.2 ns at 2e10/s; the data fit in L1.
	if math.Abs(base.Compute-614.4e-9) > 1e-15 || math.Abs(fast.Compute-307.2e-9) > 1e-15 {
		t.Errorf("compute %g then %g, want 614.4 ns then 307.2 ns", base.Compute, fast.Compute)
	}
	// A sort's own rate holds its mispredictions: no branch term then.
	q, _ := Model(m, "quicksort", mbram.DefaultParams(1<<10))
	m.CoreRates["quicksort"] = 5e9
	qr, _ := Model(m, "quicksort", mbram.DefaultParams(1<<10))
	if !(q.Branch > 0) || qr.Branch != 0 || !qr.BranchInRate || math.Abs(qr.Compute-qr.Work.Ops/5e9) > 1e-18 {
		t.Errorf("quicksort branch %g without its rate, %g (in rate %v) with it; compute %g", q.Branch, qr.Branch, qr.BranchInRate, qr.Compute)
	}
	// The counting bucket sort's calls mispredict the exits of their two
	// loops over keys beside its own rate. N = 1024 is 10 key bits: one
	// call on 6 bits, then 64 ranges of 16 values with a Poisson(16)
	// number of keys, a call where there are two or more (1 − 17·e^−16).
	m.CoreRates["bucket-count"] = 5e9
	br, _ := Model(m, "bucket-count", mbram.DefaultParams(1<<10))
	calls := 1 + 64*(1-17*math.Exp(-16))
	if want := 2 * calls * m.M; !br.BranchInRate || math.Abs(br.Branch-want) > 1e-12*want {
		t.Errorf("bucket-count branch %g with its own rate (in rate %v), want 2·%.4f calls·m = %g", br.Branch, br.BranchInRate, calls, want)
	}
}

// Every kernel gives a finite, positive time over a wide range of sizes,
// on a hierarchy and on a paper machine, and bad input is an error.
func TestModelAllKernels(t *testing.T) {
	paper := machine.Machine{Name: "p", Beta1: 2.12e9, Beta2: 0.95e9, Mu1: 2, C: 512 << 10, B: 128, M: 7.52e-9}
	for _, m := range []machine.Machine{twoLevels(), paper} {
		for _, k := range mbram.Kernels() {
			for _, n := range []int64{1, 2, 100, 1 << 16, 1 << 24, 1 << 40} {
				if k.NIsDimension() && n > 1<<20 {
					continue
				}
				e, err := Model(m, k.ID, mbram.DefaultParams(n))
				if err != nil || !(e.Seconds >= 0) || math.IsInf(e.Seconds, 0) {
					t.Errorf("%s n=%d: %v, %g", k.ID, n, err, e.Seconds)
				}
			}
		}
	}
	if _, err := Model(twoLevels(), "nosuch", mbram.DefaultParams(10)); err == nil {
		t.Error("unknown kernel accepted")
	}
	if _, err := Model(twoLevels(), "perm", mbram.DefaultParams(0)); err == nil {
		t.Error("n = 0 accepted")
	}
}

// msdCalls against a brute-force count: the calls a most-significant-digit
// sort makes on random keys uniform on [0, n), averaged over a few key
// sets, within 5% (the expectation is over key sets).
func TestMSDCallsAgainstCount(t *testing.T) {
	for _, n := range []int{256, 1000, 4096, 1 << 14, 50000} {
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		bits := 0
		for 1<<bits < n {
			bits++
		}
		var calls, children float64
		const sets = 4
		for r := 0; r < sets; r++ {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = rng.Uint32N(uint32(n))
			}
			var walk func(keys []uint32, bits int)
			walk = func(keys []uint32, bits int) {
				if bits <= 0 || len(keys) <= 1 {
					return
				}
				w := min(6, bits)
				calls++
				b := 1 << w
				children += float64(b)
				parts := make([][]uint32, b)
				for _, k := range keys {
					d := (k >> (bits - w)) & uint32(b-1)
					parts[d] = append(parts[d], k)
				}
				for _, p := range parts {
					walk(p, bits-w)
				}
			}
			walk(keys, bits)
		}
		calls, children = calls/sets, children/sets
		gc, gch := msdCalls(shape{n: float64(n), w: 4, b: 64})
		if math.Abs(gc-calls) > 0.05*calls || math.Abs(gch-children) > 0.05*children {
			t.Errorf("n=%d: %.0f calls, %.0f children; counted %.0f, %.0f", n, gc, gch, calls, children)
		}
	}
}

// TestRadixWorkBuckets: the simple radix sort's per-bucket work, counted
// by hand from measure.RadixSortIn with b = 64. 2^10 keys: digits of 6
// and 4 bits, so the second pass reads the first pass's 16 buckets and
// the copy back the 64 of the top digit. 2^16 keys: digits 6, 6, 4; the
// later passes read 16 + 64 buckets. 64 keys: one pass from the input,
// whose 64 buckets are copied back.
func TestRadixWorkBuckets(t *testing.T) {
	for _, c := range []struct {
		n             float64
		digits        float64
		reads, copies float64
	}{
		{1 << 10, 2, 16, 64},
		{1 << 16, 3, 80, 64},
		{64, 1, 0, 64},
	} {
		got := radixWork(shape{n: c.n, w: 4, b: 64})
		ops := (11*c.digits+3)*c.n + 6*c.reads + 8*c.copies
		if got.Ops != ops || got.CallMispredicts != c.reads+c.copies {
			t.Errorf("n=%g: %g ops, %g mispredictions; want %g and %g", c.n, got.Ops, got.CallMispredicts, ops, c.reads+c.copies)
		}
	}
}

// TestTwoPassTraffic: the two-pass product's lines per level, by hand
// (w = 4, lines of 64 B, 33 streams, so the block pointers stream: three
// passes of X, Z and D and the write-backs, 10m sequential lines for m
// lines of an array). Phase II reads Y within a block of C/2 bytes; a
// block's share of Y is at most Y, so where the whole of Y fits in a
// level its lines come in once, however large the last cache's block.
func TestTwoPassTraffic(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name       string
		n, c, size float64
		seq, rand  float64
	}{
		// Y of 256 KiB in a level of 1 MiB, one block of 32Mi elements:
		// m = 4096 lines, Y's come in once.
		{"Y fits, one block", 1 << 16, 256 * mib, mib, 10 * 4096, 4096},
		// Y of 4 MiB in 1 MiB: a quarter of its lines held, m = 65536:
		// 0.25·65536 + 0.75·2^20 reads miss.
		{"Y four times the level", 1 << 20, 256 * mib, mib, 10 * 65536, 0.25*65536 + 0.75*(1<<20)},
		// Four blocks of 1Mi elements (C = 8 MiB), each 4 MiB of Y in a
		// level of 2 MiB: half held, m = 2^18.
		{"blocks twice the level", 1 << 22, 8 * mib, 2 * mib, 10 * (1 << 18), 0.5*(1<<18) + 0.5*(1<<22)},
	} {
		s := shape{n: tc.n, w: 4, b: 64, c: tc.c, streams: 33}
		got := twoPassTraffic(s, lvl{size: tc.size, line: 64, lines: tc.size / 64})
		if math.Abs(got.Seq-tc.seq) > 1e-9*tc.seq || math.Abs(got.Rand-tc.rand) > 1e-9*tc.rand {
			t.Errorf("%s: %g sequential and %g random lines, want %g and %g", tc.name, got.Seq, got.Rand, tc.seq, tc.rand)
		}
	}
}

// TestColumnSets: the line places of a 4 KiB page (64 of 64-byte lines)
// a column's rows take, as a share of the page's, by hand: rows of 4096
// and 8192 bytes all start at the same place (1 of 64); 6144 = 1.5 pages
// alternates between two; 1024 and 3072 take four; 1000 bytes (gcd 8)
// and 4768 (gcd 16) take every place; with 128-byte lines a page has 32.
func TestColumnSets(t *testing.T) {
	for _, tc := range []struct {
		row, line, want float64
	}{
		{4096, 64, 1.0 / 64}, {8192, 64, 1.0 / 64}, {6144, 64, 2.0 / 64},
		{1024, 64, 4.0 / 64}, {3072, 64, 4.0 / 64}, {512, 64, 8.0 / 64},
		{1000, 64, 1}, {4768, 64, 1}, {4096, 128, 1.0 / 32},
		{0, 64, 1}, {2.5, 64, 1}, // not a whole row: no claim
	} {
		if got := columnSets(tc.row, tc.line); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("columnSets(%g, %g) = %g, want %g", tc.row, tc.line, got, tc.want)
		}
	}
}

// TestMatmulTrafficColumnPlaces: in a level of 1 MiB (16384 lines of 64
// bytes) the product at n = 1000 keeps its column (1000 lines beside a
// row's 63) and Q's lines come in once a row of P, n·⌈n²w/64⌉ random; at
// n = 1024 the column's lines take one place in 64, (16384 − 64)/64 = 255
// lines of the level, fewer than its 1024, and every read of Q misses:
// n³ random.
func TestMatmulTrafficColumnPlaces(t *testing.T) {
	l := lvl{size: 1 << 20, line: 64, lines: 1 << 14}
	for _, tc := range []struct {
		n, rand float64
	}{
		{1000, 1000 * math.Ceil(1000*1000*4/64.0)},
		{1024, 1024 * 1024 * 1024},
	} {
		got := matmulTraffic(shape{n: tc.n, w: 4}, l)
		if math.Abs(got.Rand-tc.rand) > 1e-9*tc.rand {
			t.Errorf("n = %g: %g random lines, want %g", tc.n, got.Rand, tc.rand)
		}
	}
}

// TestModelStreamCurve: on a machine with a stream curve the two-pass
// product's lines through its blocks are streams at every level, and each
// of D's lines, written in phase I and read in phase III, costs the
// curve's excess at the blocks' count besides. twoLevels' C is 1 MiB, so
// blocks of 128Ki elements; 2^22 elements make 32 blocks, and D's 2·2^22·4
// bytes are 2^19 lines of 64 bytes. The curve's 32 buckets take 28 ns a
// line and its fastest 16: 2^19·12 ns = 6.291456 ms more than the same
// machine with its streams bound (33) above the blocks and no curve. With
// a bound of 17 and no curve the blocks' lines are random; the curve
// overrides the bound where it reaches. 300 blocks lie past the curve's
// last point (256): the bound decides, and nothing is added.
func TestModelStreamCurve(t *testing.T) {
	curve := []machine.StreamPoint{{Buckets: 8, Scatter: 18e-9}, {Buckets: 16, Scatter: 16e-9}, {Buckets: 32, Scatter: 28e-9}, {Buckets: 64, Scatter: 20e-9}, {Buckets: 256, Scatter: 40e-9}}
	seconds := func(streams int, pts []machine.StreamPoint, n int64) Estimate {
		t.Helper()
		m := twoLevels()
		m.Streams, m.StreamCost = streams, pts
		e, err := Model(m, "perm-twopass", mbram.Params{N: n, W: 4})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	bound, withCurve := seconds(33, nil, 1<<22), seconds(33, curve, 1<<22)
	if got, want := withCurve.Seconds-bound.Seconds, float64(1<<19)*12e-9; math.Abs(got-want) > 1e-12 || math.Abs(withCurve.Streaming-want) > 1e-12 {
		t.Errorf("32 blocks: the curve adds %g s (streaming %g); want %g", got, withCurve.Streaming, want)
	}
	if withCurve.StreamCount != 32 || withCurve.StreamLines != 1<<19 {
		t.Errorf("32 blocks: %g streams, %g lines; want 32 and 2^19", withCurve.StreamCount, withCurve.StreamLines)
	}
	// Predict shows it as a term of its own.
	m := twoLevels()
	m.Streams, m.StreamCost = 33, curve
	b, err := Predict(m, "perm-twopass", mbram.Params{N: 1 << 22, W: 4})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, term := range b.Terms {
		if term.Name == "many streams" {
			found = true
			if term.Seconds != withCurve.Streaming || !strings.Contains(term.Formula, "through 32 streams at once") || !strings.Contains(term.Formula, "(12 ns a line)") {
				t.Errorf("the many streams term: %g s, %q; want %g s through 32 streams at 12 ns a line", term.Seconds, term.Formula, withCurve.Streaming)
			}
		}
	}
	if !found {
		t.Errorf("Predict's terms %v have no many streams", b.Terms)
	}
	if few := seconds(17, curve, 1<<22); few.Seconds != withCurve.Seconds {
		t.Errorf("a bound of 17 beside the curve: %g s; want the curve's %g", few.Seconds, withCurve.Seconds)
	}
	if random := seconds(17, nil, 1<<22); !(random.Seconds > bound.Seconds) {
		t.Errorf("a bound of 17 and no curve: %g s; want the random fills' more than %g", random.Seconds, bound.Seconds)
	}
	// D within the last cache: a curve from 2 buckets has an excess at
	// the 2 blocks of 2^18 elements (1 MiB), but the lines are cached.
	low := append([]machine.StreamPoint{{Buckets: 2, Scatter: 30e-9}}, curve...)
	if in := seconds(33, low, 1<<18); in.Streaming != 0 {
		t.Errorf("D of 1 MiB in a cache of 1 MiB: %g s through many streams; want none", in.Streaming)
	}
	if past := seconds(33, low, 1<<19); !(past.Streaming > 0) {
		t.Errorf("D of 2 MiB past a cache of 1 MiB, 4 blocks: no excess from a curve that starts at 2 buckets")
	}
	// 300 blocks of 128Ki elements.
	past := seconds(17, curve, 300<<17)
	if noCurve := seconds(17, nil, 300<<17); past.Seconds != noCurve.Seconds || past.Streaming != 0 {
		t.Errorf("300 blocks: %g s (streaming %g) with the curve, %g without; want the same", past.Seconds, past.Streaming, noCurve.Seconds)
	}
}

// Predict warns where the data are a little larger than a level whose
// fills weigh in the estimate, and names as the floor the estimate of the
// same machine with that level large enough to hold them (an independent
// route: the level is then warm and moves no lines). On twoLevels the
// permutation product of 2^17 elements of 4 bytes spans 1.5 MiB, 1.5
// times L2 (1 MiB); at 2^16 (768 KiB) the data fit, at 2^19 (6 MiB, six
// times L2) LRU and a real cache alike keep little of them.
func TestPredictNearFit(t *testing.T) {
	m := twoLevels()
	ls := append([]machine.Level(nil), m.Levels...)
	ls[1].Size = 2 << 20
	held := m.WithLevels(ls)
	for _, c := range []struct {
		n    int64
		want string
	}{
		{1 << 16, ""},
		{1 << 17, "are 1.5 times L2 (1 MiB)"},
		{1 << 19, ""},
	} {
		p := mbram.DefaultParams(c.n)
		p.W = 4
		b, err := Predict(m, "perm", p)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(b.Warnings, "\n")
		if c.want == "" {
			if got != "" {
				t.Errorf("n = %d: warned %q", c.n, got)
			}
			continue
		}
		floor, err := Model(held, "perm", p)
		if err != nil {
			t.Fatal(err)
		}
		if !floor.Levels[1].Warm || floor.Seconds >= b.Seconds {
			t.Fatalf("n = %d: with L2 of 2 MiB %g s (warm %v), without %g s", c.n, floor.Seconds, floor.Levels[1].Warm, b.Seconds)
		}
		if want := "down to " + units.FormatSeconds(floor.Seconds) + " if L2 held them all"; !strings.Contains(got, c.want) || !strings.Contains(got, want) {
			t.Errorf("n = %d: warned %q, want %q and %q", c.n, got, c.want, want)
		}
		// The same, as validate reads it: the level, how many times its
		// size the data are (3 arrays of 4·n bytes over 1 MiB), and the
		// floor, the machine with the larger L2's estimate.
		e, err := Model(m, "perm", p)
		if err != nil {
			t.Fatal(err)
		}
		nf, ok := e.NearFit()
		if want := float64(12*c.n) / (1 << 20); !ok || nf.Level != "L2" || nf.Size != 1<<20 || nf.Times != want || math.Abs(nf.Floor-floor.Seconds) > 1e-9*floor.Seconds {
			t.Errorf("n = %d: NearFit() = %+v, %v; want L2 of 1 MiB, %g times, floor %g s", c.n, nf, ok, want, floor.Seconds)
		}
	}
}

// A machine that says how many lines its heap walks keep in flight
// (calibration measured its walk) has each walk wait for its first line
// past a level in full and the lines below it that many at a time, over
// a heap that shrinks as the sort runs. The oracle sums heapsort's
// walks one by one, the heap holding s = N … 1 keys, the depths past a
// level log2 s − log2(size/w): on twoLevels 7 past L1 at full size
// (3 ns steps, write-backs 0.5 ns at 128 GB/s) and 2 past L2 (96 ns
// steps, write-backs 2 ns). Without the field the form is TestModelHand's:
// every line a quarter of its step.
func TestModelWalkInFlight(t *testing.T) {
	const n = 1 << 20
	work := 25.165824e-3 + 57.67168e-3 // ops and mispredictions
	sortWalks := func(k float64) float64 {
		var sec float64
		for s := 1; s <= n; s++ {
			d1 := math.Max(0, math.Log2(float64(s))-13) // past 32 KiB of 4-byte keys
			d2 := math.Max(0, math.Log2(float64(s))-18) // past 1 MiB
			sec += d1*0.5e-9 + d2*2e-9                  // write-backs
			for _, c := range []struct{ d, step float64 }{{d1, 3e-9}, {d2, 96e-9}} {
				switch {
				case c.d <= 1:
					sec += c.d * c.step
				default:
					sec += c.step + (c.d-1)/k*c.step
				}
			}
		}
		return sec
	}
	for _, c := range []struct {
		walk float64
		want float64
	}{
		// Not given: log2(64/4) = 4, a quarter of each step, at full size.
		{0, work + 7*n*(0.75e-9+0.5e-9) + 2*n*(24e-9+2e-9)},
		{2, work + sortWalks(2)},
		{1, work + sortWalks(1)},
		// More than log2(B/w): a core that runs further ahead than the
		// line, as measured.
		{8, work + sortWalks(8)},
	} {
		m := twoLevels()
		m.WalkInFlight = c.walk
		e, err := Model(m, "heapsort", mbram.DefaultParams(n))
		if err != nil {
			t.Fatal(err)
		}
		// The sum over whole heap sizes against the form's integral:
		// within a part in 10^4.
		if math.Abs(e.Seconds-c.want) > 1e-4*c.want {
			t.Errorf("walk_in_flight %g: %.9g s, want %.9g s", c.walk, e.Seconds, c.want)
		}
	}
}

// The average over heapsort's shrinking heap, in closed form, against
// the walks' own average taken numerically (the heap u·n keys, u on a
// grid of 10^6 midpoints of (0, 1]), and walkExposed by hand.
func TestSortWalkExposed(t *testing.T) {
	for _, c := range []struct{ d, k, want float64 }{
		{0.5, 4, 0.5}, {1, 4, 1}, {3, 4, 1.5}, {3, 1, 3}, {-1, 4, 0},
	} {
		if got := walkExposed(c.d, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("walkExposed(%g, %g) = %g, want %g", c.d, c.k, got, c.want)
		}
	}
	const grid = 1000000
	for _, d := range []float64{0, 0.3, 1, 2.5, 7} {
		for _, k := range []float64{1, 2.5, 4} {
			var g, all float64
			for i := range grid {
				u := (float64(i) + 0.5) / grid
				g += walkExposed(d+math.Log2(u), k)
				all += math.Max(0, d+math.Log2(u))
			}
			g, all = g/grid, all/grid
			if got := sortWalkExposed(d, k); math.Abs(got-g) > 1e-5 {
				t.Errorf("sortWalkExposed(%g, %g) = %.7g, the walks average %.7g", d, k, got, g)
			}
			if got := shrinkingDepths(d); math.Abs(got-all) > 1e-5 {
				t.Errorf("shrinkingDepths(%g) = %.7g, the walks average %.7g", d, got, all)
			}
		}
	}
}

// TestHeapMemLatency: heapsort's memory latency on a machine with a
// measured walk is the curve averaged over the sort's shrinking heap.
// The independent route averages over the walks themselves, a heap of
// u·n keys for u uniform on (0, 1) (a million of them), each weighted by
// the lines it waits for (walkExposed at d + log2 u depths past the
// level) and read at its own span, kept at least twice the level's size;
// heapMemLatency integrates over the depths instead (x = d + log2 u).
func TestHeapMemLatency(t *testing.T) {
	m := twoLevels()
	m.WalkInFlight = 4
	m.MemLatencyCurve = []machine.LatencyPoint{
		{Span: 1 << 20, Latency: 60e-9}, {Span: 2 << 20, Latency: 120e-9}, {Span: 8 << 20, Latency: 150e-9},
		{Span: 32 << 20, Latency: 200e-9}, {Span: 128 << 20, Latency: 260e-9}, {Span: 512 << 20, Latency: 330e-9},
	}
	l2 := lvlOf(m.Levels[1])
	walks := func(n float64) float64 {
		d := heapDepthsPast(n, 4, l2.size)
		least := math.Min(4*n, 2*l2.size)
		const grid = 1000000
		var sum, weights float64
		for i := range grid {
			u := (float64(i) + 0.5) / grid
			wt := walkExposed(d+math.Log2(u), m.WalkInFlight)
			sum += wt * m.MemLatencyAt(math.Max(u*4*n, least))
			weights += wt
		}
		return sum / weights
	}
	for _, n := range []float64{1 << 25, 1 << 22, 3 << 18} {
		got, ok := heapMemLatency(shape{n: n, w: 4, m: m}, l2)
		want := walks(n)
		if !ok || math.Abs(got/want-1) > 1e-3 {
			t.Errorf("heap of %g keys: %.5g s %v, the walks average %.5g", n, got, ok, want)
		}
		if at := m.MemLatencyAt(4 * n); n == 1<<25 && !(got < 0.9*at) {
			t.Errorf("heap of %g keys: %.4g s, want well under the curve at the whole heap, %.4g", n, got, at)
		}
	}
	// A flat curve gives its one latency; no walk measured, or no depth
	// past the level, leaves the curve at the data's span.
	flat := m
	flat.MemLatencyCurve = []machine.LatencyPoint{{Span: 1 << 20, Latency: 90e-9}, {Span: 1 << 30, Latency: 90e-9}}
	if got, ok := heapMemLatency(shape{n: 1 << 25, w: 4, m: flat}, l2); !ok || math.Abs(got-90e-9) > 1e-18 {
		t.Errorf("flat curve: %g %v, want 90 ns", got, ok)
	}
	none := m
	none.WalkInFlight = 0
	if _, ok := heapMemLatency(shape{n: 1 << 25, w: 4, m: none}, l2); ok {
		t.Error("without a measured walk the curve at the data's span should stand")
	}
	if _, ok := heapMemLatency(shape{n: 1 << 17, w: 4, m: m}, l2); ok {
		t.Error("a heap within the level has no lines past it")
	}
}

// WalkInFlightOf inverts the walk's charge for a heap of fixed size. A
// walk down 2^20 keys (4 MiB) on twoLevels finds 7 depths past L1 (32
// KiB) at a 3 ns step and 2 past L2 (1 MiB) at a 96 ns step: its first
// lines wait 3 + 96 = 99 ns, the 6 + 1 below them 18 + 96 = 114 ns
// shared among the lines in flight; L2's two write-backs at 64 B / 32
// GB/s are 4 ns; 19 steps of 5 ns are 95 ns. A walk of 95 + 4 + 99 +
// 114/2 ns keeps two lines in flight; one no slower than its steps,
// write-backs and first lines gives none.
func TestWalkInFlightOf(t *testing.T) {
	m := twoLevels()
	k, ok := WalkInFlightOf(m, 1<<20, 19, (95+4+99+57)*1e-9, 5e-9, 0)
	if !ok || math.Abs(k-2) > 1e-9 {
		t.Errorf("got %g %v, want 2 lines in flight", k, ok)
	}
	// Memory's latency timed beside the walk at 148 ns: L2's step is
	// 144 ns, the first lines 147 ns and those below 162, and the same
	// walk of 255 ns keeps 162/9 = 18 lines in flight.
	if k, ok := WalkInFlightOf(m, 1<<20, 19, 255e-9, 5e-9, 148e-9); !ok || math.Abs(k-18) > 1e-6 {
		t.Errorf("with memory at 148 ns: got %g %v, want 18", k, ok)
	}
	if k, ok := WalkInFlightOf(m, 1<<20, 19, 198e-9, 5e-9, 0); ok {
		t.Errorf("a walk no slower than its steps, write-backs and first lines gave %g lines in flight", k)
	}
}

// HeapStepSeconds is a step's 12 operations at heapsort's core rate
// (3e9/s: 4 ns), or at the compute rate (4e9/s: 3 ns) with half a
// misprediction (5 ns: 2.5 ns) when the kernel's rate is not given.
func TestHeapStepSeconds(t *testing.T) {
	m := twoLevels()
	m.CoreRates, m.ComputeRate, m.M = map[string]float64{"heapsort": 3e9}, 4e9, 5e-9
	if got := HeapStepSeconds(m); math.Abs(got-4e-9) > 1e-18 {
		t.Errorf("at the core rate: %g s, want 4 ns", got)
	}
	m.CoreRates = nil
	if got := HeapStepSeconds(m); math.Abs(got-5.5e-9) > 1e-18 {
		t.Errorf("at the compute rate: %g s, want 5.5 ns", got)
	}
	m.ComputeRate = 0
	if got := HeapStepSeconds(m); got != 0 {
		t.Errorf("with no rate: %g s, want 0", got)
	}
}

// TestPredictFewPlaces: the product's warning where its column crowds into
// a page's few line places. twoLevels' L2 has 16384 lines: at n = 1024
// (rows of 4 KiB, one place) it holds (16384 − 64)/64 = 255 of the
// column's 1024, under half, and the warning names them; at n = 512 (two
// places) it holds 511 of 512 and at n = 1000 every place is open, and
// neither warns.
func TestPredictFewPlaces(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{1024, "put the column's 1024 lines in 1 of a page's 64 line places, so L2 holds 255 of them"},
		{512, ""},
		{1000, ""},
	} {
		b, err := Predict(twoLevels(), "matmul", mbram.DefaultParams(tc.n))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, w := range b.Warnings {
			if strings.Contains(w, "line places") {
				got = w
			}
		}
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("n = %d: warning %q, want one with %q", tc.n, got, tc.want)
		}
	}
}

// crowdedMachine is the machine of the crowded column's tests: an L1 of
// 512 lines, an L2 of 8 MiB, a crowded read of 2 ns, and curve as its
// column curve.
func crowdedMachine(curve []machine.ColumnPoint) machine.Machine {
	m := machine.Machine{Name: "c", Beta1: 40e9, Beta2: 20e9, Mu1: 2, M: 5e-9, ComputeRate: 1e10, CrowdedRead: 2e-9, ColumnCurve: curve}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 400e9, Beta2: 200e9},
		{Name: "L2", Size: 8 << 20, Line: 64, Beta1: 40e9, Beta2: 20e9},
	})
}

// TestModelCrowdedColumn: the product at n = 1024 (rows of 4 KiB, the
// column in one place) on a machine whose L1 of 512 lines holds 7 of the
// column there and whose L2 of 8 MiB holds Q. By hand: L1's fills are
// P's and R's 3·65536 sequential lines at 400 GB/s and the n³ reads of Q
// random at 200 GB/s, L2's Q, P and R once, 4·65536 lines at 40 GB/s:
// 3.1457e-5 + 0.34359738 + 4.194304e-4 = 0.34404827 s. A crowded read of
// 2 ns makes the n³ reads at least 2.147483648 s: 1.80343538 s more. At
// 0.1 ns the levels charge more than the floor, and at n = 1000 (every
// place open) nothing is crowded.
func TestModelCrowdedColumn(t *testing.T) {
	m := crowdedMachine(nil)
	e, err := Model(m, "matmul", mbram.DefaultParams(1024))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.Crowded-1.80343538) > 1e-8 || e.CrowdedReads != 1<<30 {
		t.Errorf("crowded %.10g s over %g reads, want 1.80343538 s over 2^30", e.Crowded, e.CrowdedReads)
	}
	b, err := Predict(m, "matmul", mbram.DefaultParams(1024))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, term := range b.Terms {
		found = found || term.Name == "crowded column" && term.Seconds == e.Crowded && strings.Contains(term.Formula, "(2 ns)")
	}
	for _, w := range b.Warnings {
		if strings.Contains(w, "line places") {
			t.Errorf("a machine with a crowded read warned: %q", w)
		}
	}
	if !found {
		t.Errorf("Predict's terms %v have no crowded column of %g s at 2 ns", b.Terms, e.Crowded)
	}
	// Twice the lines the crowded read was timed over (2·512) and more:
	// the warning says the floor may fall short.
	b, err = Predict(m, "matmul", mbram.DefaultParams(2048))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(b.Warnings, func(w string) bool {
		return strings.Contains(w, "the column's 2048 lines in one place of their pages") && strings.Contains(w, "timed over 512 such lines") && strings.Contains(w, "(n = 2047 or 2049")
	}) {
		t.Errorf("n = 2048: warnings %q", b.Warnings)
	}
	m.CrowdedRead = 0.1e-9
	if e, _ := Model(m, "matmul", mbram.DefaultParams(1024)); e.Crowded != 0 {
		t.Errorf("at 0.1 ns a read: crowded %g s, want 0 (the levels charge more)", e.Crowded)
	}
	m.CrowdedRead = 2e-9
	if e, _ := Model(m, "matmul", mbram.DefaultParams(1000)); e.Crowded != 0 {
		t.Errorf("n = 1000: crowded %g s, want 0", e.Crowded)
	}
}

// TestModelColumnCurve: the same machine and product with a column
// curve. At n = 1024 the column's 1024 lines take one place: between the
// curve's 16 and 4096 lines there, 1024 lies 6/8 of the way in log
// lines, 1 + 0.75·(5 − 1) = 4 ns a step, so the product takes at least
// 2^30·4 ns = 4.294967296 s, and the curve replaces the crowded read's
// floor. At n = 1000 every place is open and the curve's 0.3 ns a step
// (0.3 s) is under the levels' fills alone: no floor.
func TestModelColumnCurve(t *testing.T) {
	m := crowdedMachine([]machine.ColumnPoint{{Places: 1, Lines: 16, Read: 1e-9}, {Places: 1, Lines: 4096, Read: 5e-9}, {Places: 64, Lines: 16, Read: 0.3e-9}, {Places: 64, Lines: 4096, Read: 0.3e-9}})
	e, err := Model(m, "matmul", mbram.DefaultParams(1024))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.Seconds-4.294967296) > 1e-9 || e.Crowded != 0 || e.ColumnPlaces != 1 || math.Abs(e.ColumnRead-4e-9) > 1e-18 || e.ColumnSteps != 1<<30 || !(e.Column > 0) {
		t.Errorf("n = 1024: %.10g s (column %g s, %g steps at %g places, %g s a step; crowded %g s), want 4.294967296 s from the curve alone",
			e.Seconds, e.Column, e.ColumnSteps, e.ColumnPlaces, e.ColumnRead, e.Crowded)
	}
	b, err := Predict(m, "matmul", mbram.DefaultParams(1024))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(b.Terms, func(term mbram.Term) bool {
		return term.Name == "column loop" && term.Seconds == e.Column && strings.Contains(term.Formula, "in 1 of its pages' line places") && strings.Contains(term.Formula, "(4 ns a step")
	}) {
		t.Errorf("Predict's terms %v have no column loop of %g s at 4 ns", b.Terms, e.Column)
	}
	if e, _ := Model(m, "matmul", mbram.DefaultParams(1000)); e.Column != 0 || e.Crowded != 0 {
		t.Errorf("n = 1000: column %g s, crowded %g s; want 0 and 0", e.Column, e.Crowded)
	}
	// Other kernels never read the curve.
	m2 := m
	m2.ColumnCurve = nil
	for _, k := range []string{"perm", "heapsort", "radix"} {
		a, _ := Model(m, k, mbram.DefaultParams(1<<20))
		z, _ := Model(m2, k, mbram.DefaultParams(1<<20))
		if a.Seconds != z.Seconds {
			t.Errorf("%s: %g s with the curve, %g without", k, a.Seconds, z.Seconds)
		}
	}
}

// TestModelDependentReach: heapsort's walks find the last level only up
// to the machine's DependentReach. On a machine whose 8 MiB L3 a chase
// leaves at 4 MiB·√2 (2^22.5 B, machine.TestDependentReach's curve), a
// heap of 2^22 keys (16 MiB) has lg N − log2(2^22.5/4) = 22 − 20.5 = 1.5
// depths past L3, where the level's size gives 22 − 21 = 1: 1.5·N
// dependent lines and as many write-backs (no walk_in_flight, so no
// shrinking). A heap of 1.5·2^20 keys (6 MiB), which fits L3 but not the
// reach, moves log2(1.5) + 20 − 20.5 depths' lines where the level alone
// was warm. WalkInFlightOf reads the walk on the same terms: the machine
// with the reach gives what one whose L3 is the reach's size gives.
func TestModelDependentReach(t *testing.T) {
	const mi = 1 << 20
	levels := []machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 * mi, Line: 64, Beta1: 64e9, Beta2: 32e9, Latency: 4e-9},
		{Name: "L3", Size: 8 * mi, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 15e-9},
	}
	tail := []machine.LatencyPoint{{Span: 16 * mi, Latency: 135e-9}, {Span: 32 * mi, Latency: 150e-9}}
	plain := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 150e-9, ComputeRate: 1e10, MemLatencyCurve: tail}.WithLevels(levels)
	reach := plain
	reach.MemLatencyCurve = append([]machine.LatencyPoint{{Span: 2 * mi, Latency: 15e-9}, {Span: 4 * mi, Latency: 25e-9}, {Span: 8 * mi, Latency: 125e-9}}, tail...)
	r := 4 * mi * math.Sqrt2
	for _, c := range []struct {
		name       string
		m          machine.Machine
		n          int64
		dep, reach float64
		warm       bool
	}{
		{"the level's size", plain, 1 << 22, 1 << 22, 0, false},
		{"the reach", reach, 1 << 22, 1.5 * (1 << 22), r, false},
		{"a heap in the level", plain, 3 << 19, 0, 0, true},
		{"a heap past the reach", reach, 3 << 19, (3 << 19) * (math.Log2(1.5) + 20 - 20.5), r, false},
	} {
		e, err := Model(c.m, "heapsort", mbram.Params{N: c.n, W: 4})
		if err != nil {
			t.Fatal(err)
		}
		l3 := e.Levels[2]
		if math.Abs(l3.Traffic.Dep-c.dep) > 1e-6*math.Max(c.dep, 1) || math.Abs(l3.Traffic.Seq-c.dep) > 1e-6*math.Max(c.dep, 1) ||
			math.Abs(l3.Reach-c.reach) > 1e-6*math.Max(c.reach, 1) || l3.Warm != c.warm {
			t.Errorf("%s: L3 dependent %g, write-backs %g, reach %g, warm %v; want %g, %g, %g, %v",
				c.name, l3.Traffic.Dep, l3.Traffic.Seq, l3.Reach, l3.Warm, c.dep, c.dep, c.reach, c.warm)
		}
	}
	sized := plain
	sized.Levels = append([]machine.Level(nil), levels...)
	sized.Levels[2].Size = int64(r)
	sized.C = int64(r)
	got, ok1 := WalkInFlightOf(reach, 1<<25, 24, 600e-9, 5e-9, 0)
	want, ok2 := WalkInFlightOf(sized, 1<<25, 24, 600e-9, 5e-9, 0)
	if !ok1 || !ok2 || math.Abs(got-want) > 1e-6*want { // the sized L3 is the reach in whole bytes
		t.Errorf("WalkInFlightOf with the reach %g (%v), with L3 of the reach's size %g (%v)", got, ok1, want, ok2)
	}
}

// TestModelTwoPassBlocksRate: the two-pass product's work is charged at
// its rate with several blocks once N fills more than one block, at its
// own rate below that, and at its own rate at every N on a machine
// without the second. twoLevels' last cache is 1 MiB: blocks of
// 1 MiB/2/4 B = 131072 elements, so N = 131072 is one block and 131073
// two. The work is (8 + DivOps + 6 + 8 + DivOps)·N operations.
func TestModelTwoPassBlocksRate(t *testing.T) {
	m := twoLevels()
	m.CoreRates = map[string]float64{"perm-twopass": 2e10, TwoPassBlocksRate: 1.6e10}
	own := m
	own.CoreRates = map[string]float64{"perm-twopass": 2e10}
	for _, tc := range []struct {
		name string
		m    machine.Machine
		n    int64
		rate float64
		key  string
	}{
		{"one block", m, 131072, 2e10, ""},
		{"two blocks", m, 131073, 1.6e10, TwoPassBlocksRate},
		{"many blocks", m, 1 << 24, 1.6e10, TwoPassBlocksRate},
		{"two blocks, no such rate", own, 131073, 2e10, ""},
	} {
		e, err := Model(tc.m, "perm-twopass", mbram.DefaultParams(tc.n))
		if err != nil {
			t.Fatal(err)
		}
		ops := (8 + DivOps + 6 + 8 + DivOps) * float64(tc.n)
		if want := ops / tc.rate; math.Abs(e.Compute-want) > 1e-12*want || e.Rate != tc.rate || e.RateKey != tc.key || !e.BranchInRate {
			t.Errorf("%s: compute %g at %g (key %q, branch in rate %v), want %g at %g (key %q)", tc.name, e.Compute, e.Rate, e.RateKey, e.BranchInRate, want, tc.rate, tc.key)
		}
		b, err := Predict(tc.m, "perm-twopass", mbram.DefaultParams(tc.n))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.Terms[0].Formula, "several blocks"); got != (tc.key != "") {
			t.Errorf("%s: the compute term %q names the several blocks' rate: %v", tc.name, b.Terms[0].Formula, got)
		}
	}
	// Another kernel keeps its own rate beside it.
	if e, _ := Model(m, "perm", mbram.DefaultParams(1<<20)); e.RateKey != "" || e.Rate != m.ComputeRate {
		t.Errorf("perm: rate %g (key %q), want the compute rate %g", e.Rate, e.RateKey, m.ComputeRate)
	}
}

// TestModelGatherCurve: on a machine with a gather curve that reaches
// Y's span, the permutation product takes at least the curve's time for
// its reads of Y, and the rest of its estimate (its work, the levels
// carrying X and Z alone) runs beside them. By hand, on twoLevels with
// the curve 4 ns at 8 MiB and 8 ns at 32 MiB, N = 2^22 (Y of 16 MiB,
// halfway in log: 6 ns):
//   - reads: 4194304 · 6 ns = 25.165824 ms;
//   - the rest: work 6 · 4194304 / 10^10 = 2.5165824 ms; X and Z,
//     3 · 16 MiB / 64 B = 786432 lines, from L2 into L1 at 128 GB/s
//     (393.216 µs) and from memory into L2 at 32 GB/s (1.572864 ms):
//     4.4826624 ms;
//
// so 25.165824 ms in all, the gather term the 20.6831616 ms it adds to
// the rest. A curve at 0.1 ns a read (0.4194304 ms) adds nothing: the
// rest, 4.4826624 ms, and no translation term for the reads. At N =
// 2^20 (Y of 4 MiB, before the curve) and on the machine without it
// nothing changes; the two-pass product's phase II is not such a loop
// and keeps the levels' price.
func TestModelGatherCurve(t *testing.T) {
	m := twoLevels()
	bare := m
	m.GatherCurve = []machine.GatherPoint{{Span: 8 << 20, Read: 4e-9}, {Span: 32 << 20, Read: 8e-9}}
	e, err := Model(m, "perm", mbram.DefaultParams(1<<22))
	if err != nil {
		t.Fatal(err)
	}
	if want := 25.165824e-3; math.Abs(e.Seconds-want) > 1e-12 || math.Abs(e.Gather-20.6831616e-3) > 1e-12 || math.Abs(e.GatherRead-6e-9) > 1e-18 || e.Spread != 0 {
		t.Errorf("perm at 2^22: %g s (gather %g at %g a read, spread %g), want %g", e.Seconds, e.Gather, e.GatherRead, e.Spread, want)
	}
	fast := m
	fast.GatherCurve = []machine.GatherPoint{{Span: 8 << 20, Read: 0.1e-9}, {Span: 32 << 20, Read: 0.1e-9}}
	if e, err := Model(fast, "perm", mbram.DefaultParams(1<<22)); err != nil || math.Abs(e.Seconds-4.4826624e-3) > 1e-12 || e.Gather != 0 || e.Spread != 0 {
		t.Errorf("perm at 2^22 with a fast curve: %g s (gather %g, spread %g, %v), want 4.4826624 ms", e.Seconds, e.Gather, e.Spread, err)
	}
	b, err := Predict(m, "perm", mbram.DefaultParams(1<<22))
	if err != nil || !slices.ContainsFunc(b.Terms, func(t mbram.Term) bool { return t.Name == "random reads by index" && t.Seconds == e.Gather }) {
		t.Errorf("Predict's terms %+v (%v) have no gather term", b.Terms, err)
	}
	for _, c := range []struct {
		name   string
		m      machine.Machine
		kernel string
		n      int64
	}{
		{"perm before the curve", m, "perm", 1 << 20},
		{"perm-twopass within the curve", func() machine.Machine {
			o := m
			o.GatherCurve = []machine.GatherPoint{{Span: 1 << 10, Read: 1e-9}, {Span: 1 << 30, Read: 9e-9}}
			return o
		}(), "perm-twopass", 1 << 22},
	} {
		got, err1 := Model(c.m, c.kernel, mbram.DefaultParams(c.n))
		want, err2 := Model(bare, c.kernel, mbram.DefaultParams(c.n))
		if err1 != nil || err2 != nil || got.Gather != 0 || got.Seconds != want.Seconds {
			t.Errorf("%s: %g s (gather %g), without the curve %g (%v, %v)", c.name, got.Seconds, got.Gather, want.Seconds, err1, err2)
		}
	}
}

// TestModelBucketCalls: on a machine with a rate of the simple bucket
// sort's calls (BucketCallsRate) the calls cost the rate's time each in
// place of their operations at the kernel's rate and their exits at the
// penalty. By hand at 2^13 keys of 6-bit digits: one call of 2^13 keys,
// 64 of 128 each, and at the 1-bit last digit 4096 ranges of two values,
// one key a value, of which a share 1 − e^−2·3 hold two keys or more:
// 65 + 4096·(1 − 3e^−2) = 2497.97 calls. At 10^8 calls a second they
// take 24.98 µs; without the rate they took 15 operations at the
// kernel's 10^9 a second and 5 ns of penalty each, 20 ns, 49.96 µs. The
// rest of the estimate (the twoLevels machine has no first-level
// overlap, so the levels do not see the work) is the same.
func TestModelBucketCalls(t *testing.T) {
	m := twoLevels()
	m.CoreRates = map[string]float64{"bucket": 1e9}
	n := int64(1 << 13)
	calls := 65 + 4096*(1-3*math.Exp(-2))
	without, err := Model(m, "bucket", mbram.DefaultParams(n))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(without.Work.Calls-calls) > 1e-9*calls || without.Work.CallOps != 15*without.Work.Calls || without.CallSeconds != 0 {
		t.Fatalf("work %+v, call seconds %g; want %g calls of 15 operations, none charged apart", without.Work, without.CallSeconds, calls)
	}
	m.CoreRates[BucketCallsRate] = 1e8
	with, err := Model(m, "bucket", mbram.DefaultParams(n))
	if err != nil {
		t.Fatal(err)
	}
	if want := calls / 1e8; math.Abs(with.CallSeconds-want) > 1e-9*want || with.CallRate != 1e8 {
		t.Errorf("calls %g s at %g a second, want %g s", with.CallSeconds, with.CallRate, want)
	}
	if d, want := without.Seconds-with.Seconds, calls*(20e-9-10e-9); math.Abs(d-want) > 1e-6*want {
		t.Errorf("the rate took %g s off the estimate, want %g", d, want)
	}
	if with.Branch != 0 {
		t.Errorf("branch %g s: the calls' exits are in their rate", with.Branch)
	}
	b, err := Predict(m, "bucket", mbram.DefaultParams(n))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, term := range b.Terms {
		found = found || term.Name == "calls" && strings.Contains(term.Formula, "bucket-calls rate")
		if term.Name == "branch mispredictions" {
			t.Errorf("a mispredictions term beside the calls' rate: %+v", term)
		}
	}
	if !found {
		t.Errorf("no calls term in %+v", b.Terms)
	}
}
