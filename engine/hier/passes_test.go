package hier

import (
	"math"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// withCurve is twoLevels with a distribution curve of two points: 16 KiB
// (10 and 13 ns a line) and 1 GiB (30 and 60 ns).
func withCurve() machine.Machine {
	m := twoLevels()
	m.Distribution = []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9}, {Size: 1 << 30, Count: 30e-9, Scatter: 60e-9}}
	return m
}

// TestPassesHandCalculations: the distribution sorts on a machine with a
// curve, worked by hand.
func TestPassesHandCalculations(t *testing.T) {
	m := withCurve()
	for _, c := range []struct {
		name, kernel string
		n            int64
		want         float64
	}{
		// Radix-count of 2^20 keys, b = 64: 20 bits make digits of 6, 6,
		// 6 and 2 bits. Each pass over 4 MiB arrays, 8 of the 16
		// doublings from 16 KiB to 1 GiB: count 20 ns, scatter 36.5 ns a
		// line, 65 536 lines: 1.31072 and 2.392064 ms for the three
		// passes into 64 buckets. The pass into 4 streams (4 + 1 ≤ 16):
		// its scatter is charged the count's 20 ns, 1.31072 ms. The work
		// at 1e10 ops/s, 6·N = 0.6291456 ms and 8·N = 0.8388608 ms, is
		// the shorter of each pair. 4 digits: no copy, no other work.
		{"radix-count beyond the work", "radix-count", 1 << 20, 3*3.702784e-3 + 2*1.31072e-3},
		// Radix of 2^20 keys (the simple sort): 3 passes of the scatter
		// only, work 11·N = 1.1534336 ms against the curve's 2.392064:
		// 3·2.392064 ms; the pass into 4 buckets, the count's 1.31072 ms
		// against the same work. Then the buckets' copy back (3·N ops at
		// 1e10 = 0.3145728 ms) and its lines: it reads 65 536 and writes
		// 65 536 (filled and written back) through both levels, 196 608
		// lines at 0.5 ns in L1 and 2 ns in L2: 0.098304 + 0.393216 ms.
		// The buckets' loops: the passes after the first read the
		// 4 + 64 + 64 buckets of the digits below the top one (6 ops
		// each) and the copy back the top digit's 64 (8 ops each): 1 304
		// ops at 1e10, 0.1304 µs; and 132 + 64 mispredicted exits at the
		// machine's 5 ns, 0.98 µs.
		{"radix, the simple sort", "radix", 1 << 20, 3*2.392064e-3 + 1.31072e-3 + 0.3145728e-3 + 0.098304e-3 + 0.393216e-3 + 0.1304e-6 + 0.98e-6},
		// Radix-count of 2^12 keys (16 KiB): 2 passes at the curve's first
		// point, 256 lines: count 2.56 µs, scatter 3.328 µs; the work,
		// 6·4096 = 24 576 ops (2.4576 µs) and 8·4096 (3.2768 µs), is
		// shorter still: 2·5.888 µs, and the footprint (32 KiB) fits in
		// L1, so the levels move nothing.
		{"radix-count in L1", "radix-count", 1 << 12, 2 * 5.888e-6},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Model(m, c.kernel, mbram.DefaultParams(c.n))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(e.Seconds-c.want) > 1e-9*c.want {
				t.Errorf("%s n=%d: %g s, want %g (passes %g, compute %g, levels %+v)", c.kernel, c.n, e.Seconds, c.want, e.Passes, e.Compute, e.Levels)
			}
		})
	}
}

// TestPassesLongerOfTwo: the simple sort's scatter is charged its work
// where the work is the longer; a rate a hundred times slower makes every
// pass work-bound, so the simple radix sort costs its work at that rate
// plus its levels' copy. The counting sort's loops are the curve's own:
// they cost the curve's time at any rate.
func TestPassesLongerOfTwo(t *testing.T) {
	m := withCurve()
	m.ComputeRate = 1e8
	e, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	// 11·4·2^20 ops of the passes, 3·2^20 of the copy and 1 304 of the
	// buckets' loops at 1e8/s, the copy's 196 608 lines at 0.5 and 2 ns,
	// and the loops' 196 mispredictions at 5 ns
	// (TestPassesHandCalculations).
	if want := ((11*4+3)*float64(1<<20)+1304)/1e8 + 196608*2.5e-9 + 196*5e-9; math.Abs(e.Seconds-want) > 1e-9*want || e.PassWork != e.Passes {
		t.Errorf("radix: %g s, want %g (passes %g, work %g)", e.Seconds, want, e.Passes, e.PassWork)
	}
	c, err := Model(m, "radix-count", mbram.DefaultParams(1<<20))
	if want := 3*3.702784e-3 + 2*1.31072e-3; err != nil || math.Abs(c.Seconds-want) > 1e-9*want || c.PassWork != 0 {
		t.Errorf("radix-count at 1e8 ops/s: %g s, want the curve's %g (work %g, %v)", c.Seconds, want, c.PassWork, err)
	}
}

// TestBucketPassesAtRadixRate: the simple bucket sort's scatter loop is
// the simple radix sort's, so on a machine with the radix sort's own rate
// its passes are charged at that rate and its own rate prices only the
// rest. 2^12 keys, b = 64: two 6-bit digits, each pass 11·4096 = 45 056
// operations; at the radix rate of 1e8 a pass takes 450.56 µs against
// the curve's 256 lines at 13 ns (3.328 µs), so the passes cost
// 2·450.56 µs. Without the radix rate they cost the same work at the
// bucket sort's 1e7: the prediction falls by 2·45 056·(1/1e7 − 1/1e8) s.
func TestBucketPassesAtRadixRate(t *testing.T) {
	m := withCurve()
	m.CoreRates = map[string]float64{"bucket": 1e7}
	own, err1 := Model(m, "bucket", mbram.DefaultParams(1<<12))
	m.CoreRates["radix"] = 1e8
	at, err2 := Model(m, "bucket", mbram.DefaultParams(1<<12))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	const passOps = 2 * 11 * 4096
	if want := passOps / 1e8; math.Abs(at.Passes-want) > 1e-12 || at.PassRate != 1e8 || own.PassRate != 0 {
		t.Errorf("passes %g s at rate %g (own rate: %g), want %g at 1e8", at.Passes, at.PassRate, own.PassRate, want)
	}
	if want := (at.Work.Ops - passOps) / 1e7; math.Abs(at.Compute-want) > 1e-12*want {
		t.Errorf("compute %g s, want the other work %g at the bucket sort's rate", at.Compute, want)
	}
	if d, want := own.Seconds-at.Seconds, passOps*(1/1e7-1/1e8); math.Abs(d-want) > 1e-9*want {
		t.Errorf("the radix rate took %g s off, want %g", d, want)
	}
	// The radix sort itself keeps its own rate.
	r, err := Model(m, "radix", mbram.DefaultParams(1<<12))
	if err != nil || r.PassRate != 0 || math.Abs(r.PassWork-passOps/1e8) > 1e-12 {
		t.Errorf("radix: pass rate %g, work %g s, want its own rate (%v)", r.PassRate, r.PassWork, err)
	}
}

// TestBucketPassesSpan: an MSD pass reads the curve at the span the pass
// before left its keys in.
func TestBucketPassesSpan(t *testing.T) {
	ps := bucketPasses(true)(shape{n: 1 << 24, w: 4, b: 64})
	want := []float64{1 << 24, 1 << 24, 1 << 18, 1 << 12}
	if len(ps) != len(want) {
		t.Fatalf("%d passes, want %d", len(ps), len(want))
	}
	for j, p := range ps {
		if p.span != want[j] || p.keys != 1<<24 || p.countOps != countLoopOps || p.scatterOps != scatterLoopOps {
			t.Errorf("pass %d: %+v, want span %g", j, p, want[j])
		}
	}
}

// TestDigitBuckets: the digits of keys on [0, N) in 6-bit digits from
// the top of their ⌈log2 N⌉ bits, as measure's sorts take them
// (digitLevels): the last digit has the bits left over.
func TestDigitBuckets(t *testing.T) {
	for _, c := range []struct {
		n, b float64
		want []float64
	}{
		{1 << 28, 64, []float64{64, 64, 64, 64, 16}},
		{1 << 24, 64, []float64{64, 64, 64, 64}},
		{1 << 23, 64, []float64{64, 64, 64, 32}},
		{1 << 20, 64, []float64{64, 64, 64, 4}},
		{1000, 64, []float64{64, 16}}, // 10 bits: 6 and 4
		{65, 64, []float64{64, 2}},    // 7 bits: 6 and 1
		{64, 64, []float64{64}},       // 6 bits
		{1 << 16, 256, []float64{256, 256}},
	} {
		got := digitBuckets(shape{n: c.n, b: c.b})
		if !slices.Equal(got, c.want) {
			t.Errorf("N = %g, b = %g: %v, want %v", c.n, c.b, got, c.want)
		}
	}
}

// TestPassesFewBuckets: with 8 buckets every pass streams (8 + 1 ≤ 16),
// and its scatter is charged the count's time. 2^20 keys in 3-bit
// digits: seven passes (the last into 4 buckets), each 65 536 lines at
// the 4 MiB point's 20 ns for the count and for the scatter, 2.62144 ms
// (the work, 14·N ops at 1e10, is shorter); seven digits leave the keys
// in the other array, and the copy back moves 196 608 lines through both
// levels at 0.5 and 2 ns.
func TestPassesFewBuckets(t *testing.T) {
	p := mbram.DefaultParams(1 << 20)
	p.Buckets = 8
	e, err := Model(withCurve(), "radix-count", p)
	if want := 7*2.62144e-3 + 196608*2.5e-9; err != nil || math.Abs(e.Seconds-want) > 1e-9*want {
		t.Errorf("8 buckets: %g s, want %g (passes %g, %v)", e.Seconds, want, e.Passes, err)
	}
}

// TestPassesMeasuredStreams: a machine whose core keeps 33 streams
// charges a scatter into 32 buckets the count's time, which one that
// keeps the default 16 charges the curve's scatter; without a curve the
// bound decides the levels' fills.
func TestPassesMeasuredStreams(t *testing.T) {
	p := mbram.DefaultParams(1 << 20)
	p.Buckets = 32
	// 2^20 keys in 5-bit digits: four passes into 32 buckets, each
	// 65 536 lines at 20 ns for the count and 36.5 or 20 for the
	// scatter.
	def, wide := withCurve(), withCurve()
	wide.Streams = 33
	for _, c := range []struct {
		m    machine.Machine
		want float64
	}{{def, 4 * 3.702784e-3}, {wide, 4 * 2.62144e-3}} {
		e, err := Model(c.m, "radix-count", p)
		if err != nil || math.Abs(e.Seconds-c.want) > 1e-9*c.want {
			t.Errorf("32 buckets, %d streams: %g s, want %g (%v)", StreamsOf(c.m), e.Seconds, c.want, err)
		}
	}
	// Without the curve: a random fill (1 ns in L1, 4 ns in L2 here)
	// becomes a sequential one (0.5 and 2 ns) for each of the 4 passes'
	// 65 536 written lines.
	narrow, bare := twoLevels(), twoLevels()
	bare.Streams = 33
	slow, err1 := Model(narrow, "radix-count", p)
	fast, err2 := Model(bare, "radix-count", p)
	if want := 4 * 65536 * (0.5e-9 + 2e-9); err1 != nil || err2 != nil || math.Abs(slow.Seconds-fast.Seconds-want) > 1e-9*want {
		t.Errorf("32 buckets without the curve: %g s at 16 streams, %g at 33; want %g apart (%v, %v)", slow.Seconds, fast.Seconds, want, err1, err2)
	}
}

// TestPassesCurveBucketsStream: on a core that keeps the curve's 64
// buckets as streams (65 streams, as the Intel guest measured), the
// curve's scatter is already a streamed one, and no pass is charged the
// count's time in its place, however few its buckets. Radix-count of
// 2^20 keys into 8 buckets, worked as in TestPassesFewBuckets: seven
// passes of 65 536 lines at the 4 MiB point's 20 ns for the count and
// 36.5 ns for the scatter (13 + 47·8/16), 3.702784 ms each, and the
// copy back. With 64 streams the 64 buckets do not stream, and the
// passes into 8 take the count's time as before.
func TestPassesCurveBucketsStream(t *testing.T) {
	p := mbram.DefaultParams(1 << 20)
	p.Buckets = 8
	copyBack := 196608 * 2.5e-9
	for _, c := range []struct {
		streams int
		want    float64
	}{{65, 7*3.702784e-3 + copyBack}, {64, 7*2.62144e-3 + copyBack}, {200, 7*3.702784e-3 + copyBack}} {
		m := withCurve()
		m.Streams = c.streams
		e, err := Model(m, "radix-count", p)
		if err != nil || math.Abs(e.Seconds-c.want) > 1e-9*c.want {
			t.Errorf("8 buckets, %d streams: %g s, want %g (passes %g, %v)", c.streams, e.Seconds, c.want, e.Passes, err)
		}
	}
}

// TestPassesPutLoop: on a curve that also times the simple sorts' own
// scatter (put: 20 ns a line at 16 KiB, 50 ns at 1 GiB), the simple
// radix sort's passes cost the put curve, whatever the rate, as the
// counting sorts' cost theirs. Radix of 2^20 keys, worked by hand as in
// TestPassesHandCalculations: each pass moves 4 MiB of keys into buckets
// of 5 MiB, what the put loop spans at the curve's 5 MiB
// (machine.PutKeys), log2 320 = 8.32 of the 16 doublings from 16 KiB to
// 1 GiB: put 20 + 30·8.32/16 = 35.60 ns a line, 65 536 lines: 2.3333 ms
// for each of the three passes into 64 buckets. The pass into 4 buckets
// streams: the shorter of put and the longer of the count's 20 ns (at 4
// MiB, half way) and put's 20 ns at the curve's smallest arrays, 20 ns:
// 1.31072 ms. The rest is as in the hand calculations' radix.
func TestPassesPutLoop(t *testing.T) {
	m := withCurve()
	m.Distribution[0].Put, m.Distribution[1].Put = 20e-9, 50e-9
	rest := 0.3145728e-3 + 0.098304e-3 + 0.393216e-3 + 0.1304e-6 + 0.98e-6
	e, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	put4M := 20e-9 + 30e-9*math.Log2(320)/16
	want := 3*65536*put4M + 1.31072e-3 + rest
	if math.Abs(e.Seconds-want) > 1e-9*want || !e.CurveLoops || !e.PutLoop || e.PassRate != 0 {
		t.Errorf("radix: %g s, curve loops %v, put loop %v, pass rate %g; want %g s off the put curve", e.Seconds, e.CurveLoops, e.PutLoop, e.PassRate, want)
	}
	// A rate a hundred times slower: the put loops still cost the curve,
	// the rest's work a hundred times more.
	m.ComputeRate = 1e8
	slow, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if want := 3*65536*put4M + 1.31072e-3; math.Abs(slow.Passes-want) > 1e-9*want {
		t.Errorf("radix at 1e8 ops/s: passes %g s, want %g (the put curve's)", slow.Passes, want)
	}
	// The simple bucket sort's passes too, not at the radix sort's
	// rate: 2^20 keys make digits of 6, 6, 6 and 2 bits; the first two
	// passes read 4 MiB (35.60 ns a line), the third 64 KiB, so put at
	// 80 KiB (log2 5 = 2.32 of the 16 doublings to 1 GiB: 24.35 ns), the
	// fourth, into 4 buckets, 1 KiB, below the curve's first point (put
	// 20 ns, count 10 ns: 20 ns).
	m.CoreRates = map[string]float64{"radix": 5e9}
	b, err := Model(m, "bucket", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if want := 65536 * (2*put4M + 20e-9 + 30e-9*math.Log2(5)/16 + 20e-9); math.Abs(b.Passes-want) > 1e-9*want || b.PassRate != 0 || !b.PutLoop {
		t.Errorf("bucket: passes %g s, pass rate %g, put loop %v; want %g off the put curve, no pass rate", b.Passes, b.PassRate, b.PutLoop, want)
	}
	// With put at one point of two the curve has none (and the machine
	// fails validation): the simple sorts are priced as before.
	m.Distribution[1].Put = 0
	if _, ok := m.PutAt(4 << 20); ok {
		t.Errorf("PutAt with put at one point of two: ok")
	}
}

// TestPassesFewBucketChain: a pass into fewer buckets than the curve's
// takes at least the machine's few-bucket curve at its buckets, where a
// key waits for the counter the key before bumped. By hand, with the
// curve {2: count 40, scatter 50 ns; 8: count 25, scatter 35 ns} and
// 2^20 keys (digits of 6, 6, 6 and 2 bits): the pass into 4 buckets
// reads the curve half way from 2 to 8 in log, count 32.5 and scatter
// 42.5 ns a line, over the 20 ns each that TestPassesHandCalculations
// charges it, so 65 536 lines cost 2.12992 and 2.78528 ms. The passes
// into 64 buckets lie past the curve's last point and cost what they
// did. The simple radix sort's pass into 4 buckets is its scatter,
// 2.78528 ms against its work of 1.1534336 ms.
func TestPassesFewBucketChain(t *testing.T) {
	m := withCurve()
	m.FewBuckets = []machine.FewPoint{{Buckets: 2, Count: 40e-9, Scatter: 50e-9}, {Buckets: 8, Count: 25e-9, Scatter: 35e-9}}
	for _, c := range []struct {
		kernel string
		want   float64
	}{
		{"radix-count", 3*3.702784e-3 + 2.12992e-3 + 2.78528e-3},
		{"radix", 3*2.392064e-3 + 2.78528e-3 + 0.3145728e-3 + 0.098304e-3 + 0.393216e-3 + 0.1304e-6 + 0.98e-6},
	} {
		e, err := Model(m, c.kernel, mbram.DefaultParams(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Seconds-c.want) > 1e-9*c.want {
			t.Errorf("%s: %g s, want %g (passes %g)", c.kernel, e.Seconds, c.want, e.Passes)
		}
	}
	// A curve whose loops are faster than the 64-bucket curve's changes
	// nothing: it is a floor.
	m.FewBuckets = []machine.FewPoint{{Buckets: 2, Count: 1e-9, Scatter: 1e-9}, {Buckets: 32, Count: 1e-9, Scatter: 1e-9}}
	e, err := Model(m, "radix-count", mbram.DefaultParams(1<<20))
	if want := 3*3.702784e-3 + 2*1.31072e-3; err != nil || math.Abs(e.Seconds-want) > 1e-9*want {
		t.Errorf("a fast few-bucket curve: %g s, %v; want %g", e.Seconds, err, want)
	}
}

// TestPredictNamesFewBucketPass: the breakdown's passes say when a pass
// into fewer buckets than the curve's takes the few-bucket curve's
// floor (2^20 keys: a pass into 4), and say nothing of it on a machine
// without that curve or where every pass has 64 buckets (2^18 keys).
func TestPredictNamesFewBucketPass(t *testing.T) {
	with := withCurve()
	with.FewBuckets = []machine.FewPoint{{Buckets: 2, Count: 40e-9, Scatter: 50e-9}, {Buckets: 8, Count: 25e-9, Scatter: 35e-9}}
	for _, c := range []struct {
		name string
		m    machine.Machine
		n    int64
		want bool
	}{
		{"a pass into 4", with, 1 << 20, true},
		{"no few-bucket curve", withCurve(), 1 << 20, false},
		{"every pass into 64", with, 1 << 18, false},
	} {
		b, err := Predict(c.m, "radix-count", mbram.DefaultParams(c.n))
		if err != nil {
			t.Fatal(err)
		}
		var f string
		for _, term := range b.Terms {
			if term.Name == "distribution passes" {
				f = term.Formula
			}
		}
		if got := strings.Contains(f, "few-bucket curve"); got != c.want || (c.want && !strings.Contains(f, "the pass into 4 buckets at least")) {
			t.Errorf("%s: formula %q; want the few-bucket pass named: %v", c.name, f, c.want)
		}
	}
}

// TestPassesStreamCurveScale: on a core whose stream test keeps more
// streams than the curve's 64 buckets (257, as the Zen 5 guest read),
// a pass into fewer buckets takes the curve's time scaled by the stream
// curve's ratio of its count to the curve's (into 4 buckets: the
// curve's first point, 8 buckets, 15 ns, against 36 ns at 64), at least
// the loop's time at the curve's smallest arrays. By hand: the simple
// radix sort of 2^20 keys, digits of 6, 6, 6 and 2 bits, put at 10 ns
// a line at 16 KiB and 50 at 1 GiB, so 10 + 40·8.32/16 = 30.80 ns at
// the passes' 5 MiB (TestPassesPutLoop): three passes into 64 buckets
// at 30.80 ns a line and the one into 4 at 30.80·15/36 = 12.83 ns, 65 536
// lines each. Without the stream curve all four pay 30.80.
func TestPassesStreamCurveScale(t *testing.T) {
	m := withCurve()
	m.Distribution[0].Put, m.Distribution[1].Put = 10e-9, 50e-9
	m.Streams = 257
	put := 10e-9 + 40e-9*math.Log2(320)/16
	without, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if want := 4 * 65536 * put; math.Abs(without.Passes-want) > 1e-9*want {
		t.Errorf("no stream curve: passes %g s, want %g", without.Passes, want)
	}
	m.StreamCost = []machine.StreamPoint{{Buckets: 8, Scatter: 15e-9}, {Buckets: 64, Scatter: 36e-9}, {Buckets: 256, Scatter: 18e-9}}
	with, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if want := 65536 * put * (3 + 15.0/36); math.Abs(with.Passes-want) > 1e-9*want {
		t.Errorf("with the stream curve: passes %g s, want %g", with.Passes, want)
	}
	// A stream curve as fast at 64 as at 8 scales nothing.
	m.StreamCost[1].Scatter = 15e-9
	flat, err := Model(m, "radix", mbram.DefaultParams(1<<20))
	if err != nil || math.Abs(flat.Passes-without.Passes) > 1e-9*without.Passes {
		t.Errorf("a flat stream curve: passes %g s, want %g (%v)", flat.Passes, without.Passes, err)
	}
}
