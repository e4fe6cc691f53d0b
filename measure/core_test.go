package measure

import (
	"context"
	"math"
	"strings"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// TestCoreRatesReproduceTime: a rate read off a timed run, put back into
// the machine, makes the hierarchy model give that time again, for the
// kernels whose rate it uses: the counting bucket sort beside the
// distribution curve (its rate covers only its calls) as well as the
// simple one and heapsort. The counting radix sort, all of whose work is
// the curve's loops, gets the rate of all its work without the curve.
// On a curve that times the simple sorts' loop too (put), both simple
// sorts are priced as the counting ones: their rates cover the rest.
func TestCoreRatesReproduceTime(t *testing.T) {
	m := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9,
		Distribution: []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9}, {Size: 1 << 30, Count: 30e-9, Scatter: 60e-9}}}
	m = m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 4e-9},
	})
	const n = 2048
	// The simple bucket sort twice: without the simple radix sort's rate
	// (its rate covers all its work) and with it (only its calls').
	withRadix := m
	withRadix.CoreRates = map[string]float64{"radix": 4e9}
	put := m
	put.Distribution = []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9, Put: 17e-9}, {Size: 1 << 30, Count: 30e-9, Scatter: 60e-9, Put: 61e-9}}
	putRadix := put
	putRadix.CoreRates = withRadix.CoreRates
	for _, c := range []struct {
		k string
		m machine.Machine
	}{{"bucket-count", m}, {"bucket", m}, {"bucket", withRadix}, {"heapsort", m}, {"radix", put}, {"bucket", putRadix}} {
		k, m := c.k, c.m
		base, err := hier.Model(m, k, mbram.DefaultParams(n))
		if err != nil {
			t.Fatal(err)
		}
		secs := 3 * (base.Seconds + base.Work.Ops/1e9) // a run well above what the curve and lines take
		c := &coreTimer{kernel: k, n: n, secs: []float64{secs}}
		st, err := c.rates(m)
		if err != nil || !(st.Median > 0) {
			t.Fatalf("%s: rate %+v, %v", k, st, err)
		}
		withRate := m
		withRate.CoreRates = map[string]float64{k: st.Median}
		for o, r := range m.CoreRates {
			withRate.CoreRates[o] = r
		}
		e, err := hier.Model(withRate, k, mbram.DefaultParams(n))
		if err != nil || math.Abs(e.Seconds-secs) > 1e-9*secs {
			t.Errorf("%s with %v: rate %.4g gives %g s, the run took %g (%v)", k, m.CoreRates, st.Median, e.Seconds, secs, err)
		}
		if k == "bucket-count" && !e.CurveLoops {
			t.Errorf("bucket-count: its passes are not the curve's own loops")
		}
		if (k == "radix" || k == "bucket") && e.PutLoop != (m.Distribution[0].Put > 0) {
			t.Errorf("%s with put %g: put loop %v", k, m.Distribution[0].Put, e.PutLoop)
		}
		if k == "bucket" && (e.PassRate > 0) != (m.CoreRates["radix"] > 0 && !e.PutLoop) {
			t.Errorf("bucket with %v: passes at %g", m.CoreRates, e.PassRate)
		}
	}
	// The counting radix sort: the same rate as on a machine without
	// the curve.
	bare := m
	bare.Distribution = nil
	c := &coreTimer{kernel: "radix-count", n: n, secs: []float64{1e-4}}
	with, err1 := c.rates(m)
	without, err2 := c.rates(bare)
	if err1 != nil || err2 != nil || with.Median != without.Median || !(with.Median > 0) {
		t.Errorf("radix-count: %g with the curve, %g without (%v, %v)", with.Median, without.Median, err1, err2)
	}
	// The simple radix sort on the put curve, in a run of which the
	// curve's loops, its lines and its calls' mispredictions take two
	// thirds: its other work has a third, under minOwnShare, and it
	// keeps the rate of all its work, as without the curve.
	zero := put
	zero.ComputeRate, zero.M = 0, 0
	eb, err := hier.Model(zero, "radix", mbram.DefaultParams(n))
	if err != nil {
		t.Fatal(err)
	}
	c = &coreTimer{kernel: "radix", n: n, secs: []float64{1.5 * (eb.Seconds + eb.Work.CallMispredicts*put.M)}}
	noCurve := put
	noCurve.Distribution = nil
	with, err1 = c.rates(put)
	without, err2 = c.rates(noCurve)
	if err1 != nil || err2 != nil || with.Median != without.Median || !(with.Median > 0) {
		t.Errorf("radix, its other work a third of the run: %g with the curve, %g without (%v, %v)", with.Median, without.Median, err1, err2)
	}
}

// The product's calibration dimension: the largest odd multiple of 8 whose
// Q and a row of P and of C fit in half of L1, by hand: 48 KiB gives
// 4·72² + 8·72 = 21312 ≤ 24576 (77 is the largest n that fits; 72 the odd
// multiple of 8 below it); 32 KiB gives 4·63² + 8·63 = 16380 ≤ 16384, so 56;
// a one-level machine's 8 MiB cache stops at the cap, 120 (15·8).
func TestCoreSizeMatmul(t *testing.T) {
	for _, c := range []struct{ l1, want int64 }{{48 << 10, 72}, {32 << 10, 56}, {64 << 10, 88}, {512, 8}, {8 << 20, 120}} {
		if got := coreSize("matmul", c.l1); got != c.want {
			t.Errorf("coreSize(matmul, %d) = %d, want %d", c.l1, got, c.want)
		}
	}
}

// HostSpeed is the loop's rate now over the calibrated one: on a machine
// calibrated at 1 operation a second any core is faster by orders of
// magnitude, and on one without the kernel's rate it names what is
// missing.
func TestHostSpeed(t *testing.T) {
	m := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9}
	m = m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 4e-9},
	})
	if _, err := HostSpeed(context.Background(), m, "perm", 3); err == nil || !strings.Contains(err.Error(), "no core rate for perm") {
		t.Errorf("without a rate: %v", err)
	}
	m.CoreRates = map[string]float64{"perm": 1}
	s, err := HostSpeed(context.Background(), m, "perm", 3)
	if err != nil || !(s > 1e6) || math.IsInf(s, 0) {
		t.Errorf("calibrated at 1 op/s: speed %g, %v", s, err)
	}
}

// TestCoreTimerTwoPassBlocks: the two-pass product's rate with several
// blocks times the product at the core size with coreBlocks blocks (a
// 48 KiB L1: 2·1024·16 B fits in 24 KiB, 2048 does not, so N = 1024 in
// blocks of 128), where its own rate has one block (the last cache's
// 12 MiB blocks 1.5 Mi elements).
func TestCoreTimerTwoPassBlocks(t *testing.T) {
	for _, tc := range []struct {
		key    string
		blocks int
	}{{hier.TwoPassBlocksRate, 8}, {"perm-twopass", 1}} {
		c, err := newCoreTimer(tc.key, 48<<10, 12<<20)
		if err != nil {
			t.Fatal(err)
		}
		bl := TwoPassBlockLength(c.cache)
		if got := (int(c.n) + bl - 1) / bl; c.n != 1024 || got != tc.blocks {
			t.Errorf("%s: N = %d in %d blocks of %d, want 1024 in %d", tc.key, c.n, got, bl, tc.blocks)
		}
	}
}

// TestMedianRateLeavesOut: the compute rate, the kernels' median, leaves
// out the rates that are no other kernel's, the two-pass product's with
// several blocks and the simple bucket sort's calls: the median of 1, 2
// and 3 G is 2 G whatever the other rate is.
func TestMedianRateLeavesOut(t *testing.T) {
	for _, key := range []string{hier.TwoPassBlocksRate, hier.BucketCallsRate} {
		rates := map[string]Stat{}
		for k, v := range map[string]float64{"perm": 1e9, "radix": 2e9, "heapsort": 3e9, key: 9e9} {
			rates[k] = Stat{Median: v, Min: v, Max: v}
		}
		if got := medianRate(rates); got != 2e9 {
			t.Errorf("median rate %g, want 2e9 (%s left out)", got, key)
		}
	}
}

// TestCoreTimerBucketCalls: the simple bucket sort's calls are timed at
// the least power of two above its own core size whose last 6-bit digit
// has one bit (2^10 keys for a 48 KiB L1, so 2^13 = 6 + 6 + 1 bits; 2^7
// and 2^13 go on to the next, 2^13 and 2^19), and read as calls a second
// over what the model charges the sort besides them: a sample as long as
// that estimate plus 25 µs leaves the calls 25 µs. It needs the sort's
// own rate first.
func TestCoreTimerBucketCalls(t *testing.T) {
	for _, c := range []struct{ n, want int64 }{{1 << 10, 1 << 13}, {1 << 8, 1 << 13}, {1 << 7, 1 << 13}, {1 << 12, 1 << 13}, {1 << 13, 1 << 19}, {1 << 14, 1 << 19}} {
		if got := callsSize(c.n); got != c.want {
			t.Errorf("callsSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	if got := coreSize(hier.BucketCallsRate, 48<<10); got != 1<<13 || coreSize("bucket", 48<<10) != 1<<10 {
		t.Errorf("coreSize(%s) = %d, want 8192 (the sort's own at 1024)", hier.BucketCallsRate, got)
	}
	if runs(hier.BucketCallsRate) != "bucket" {
		t.Errorf("the calls rate runs %q", runs(hier.BucketCallsRate))
	}
	m := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9}
	m = m.WithLevels([]machine.Level{
		{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 4e-9},
	})
	ct := &coreTimer{kernel: hier.BucketCallsRate, n: 1 << 13}
	if _, err := ct.rates(m); err == nil || !strings.Contains(err.Error(), "own rate comes first") {
		t.Errorf("without the sort's rate: %v", err)
	}
	m.CoreRates = map[string]float64{"bucket": 1e9}
	bare := m
	bare.M = 0
	e, err := hier.Model(bare, "bucket", mbram.DefaultParams(1<<13))
	if err != nil {
		t.Fatal(err)
	}
	besides := e.Seconds - e.Work.CallOps/1e9
	ct.secs = []float64{besides + 25e-6}
	st, err := ct.rates(m)
	if want := e.Work.Calls / 25e-6; err != nil || math.Abs(st.Median-want) > 1e-6*want {
		t.Errorf("calls rate %g, %v; want %g (%g calls in 25 µs)", st.Median, err, want, e.Work.Calls)
	}
}
