package measure

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// Core rates: the in-core part of the hierarchy model (engine/hier).
//
// The model charges a kernel's work other than moving lines as its
// operations (counted from its loop, hier.Model's Work) at a rate. That
// rate is not one number: a loop of independent loads retires several
// simple operations a cycle, one held up by a division or by a counter
// bumped through memory far fewer. So each reference kernel runs here on
// data that fit in the first cache level, and its rate is its operations
// over its time less what the model charges for the few lines that still
// move and for the mispredictions of its calls' loops. The rate keeps the
// kernel's other branch mispredictions: their count grows as its
// operations do, and a sort in L1 spends most of its time on
// them, so taking them out would leave a small difference of two noisy
// numbers (Kerncraft analyses a loop's instructions
// for the same in-core term; memwall measures it). The machine's
// ComputeRate, for programs that are none of these kernels, is the median
// of the kernels' rates.

// CoreKernels are the core rates CoreRates measures: the kernels', the
// two-pass product's with several blocks (hier.TwoPassBlocksRate) and the
// simple bucket sort's calls (hier.BucketCallsRate). The simple radix
// sort comes before the simple bucket sort, whose passes are priced at
// its rate, and the bucket sort before its calls, which are read with
// its rate (coreTimer.rates).
var CoreKernels = []string{"perm", "perm-twopass", hier.TwoPassBlocksRate, "matmul", "quicksort", "mergesort", "heapsort", "radix", "radix-count", "bucket", hier.BucketCallsRate, "bucket-count"}

// coreBlocks is the blocks the two-pass product's rate with several
// blocks is timed with (hier.TwoPassBlocksRate): its phases ran at the
// same speed with 2 to 256 blocks on the Zen 5 guest.
const coreBlocks = 8

// runs is the reference kernel a core rate times: the kernel itself, the
// two-pass product for its rate with several blocks, or the simple
// bucket sort for its calls'.
func runs(rate string) string {
	switch rate {
	case hier.TwoPassBlocksRate:
		return "perm-twopass"
	case hier.BucketCallsRate:
		return "bucket"
	}
	return rate
}

// callsSize is the keys the simple bucket sort's calls are timed at
// (hier.BucketCallsRate), for its own rate timed at n keys: the least
// power of two above n whose last digit has one bit, so that the bottom
// of the recursion is some n/3 calls of about two keys into two buckets
// (2^13 for n = 2^10 and 6-bit digits), the calls at their most a key.
func callsSize(n int64) int64 {
	bits := int64(math.Ceil(math.Log2(float64(max(2, n)))))
	return int64(1) << (bits + radixBits - (bits-1)%radixBits)
}

// coreSize is the largest power of two n whose data fit in half of l1
// bytes (at least 256). The matrix dimension is the largest odd multiple
// of 8 (at least 8) whose Q, with a row of P and of C, fits in half of l1:
// the product reads Q again for every row and P and C a row at a time.
// Its per-(i, j) cost, a call of the inner loop and the loop's exit, is
// a share of the time that falls as n grows (0.44 ns a step at n = 28,
// 0.36 at 96 on the development machine), so the rate is read at the
// largest n that still keeps Q in L1. An odd multiple of 8 keeps rows an
// odd multiple of 32 bytes long: rows of a power of two's length put the
// three matrices' elements 4 KiB apart or a multiple of it, and a load
// whose address matches an earlier store's in the low 12 bits waits for
// it ("4K aliasing"), which ran the same product at 1.12e10 and 1.57e10
// operations a second in two calibrations depending on where the
// allocator put the three. The dimension is at most maxCoreMatrix: a
// machine without levels gives its one cache as l1, and a product sized to
// half of 32 MiB would take seconds a call.
func coreSize(kernel string, l1 int64) int64 {
	if kernel == hier.BucketCallsRate {
		return callsSize(coreSize("bucket", l1))
	}
	kernel = runs(kernel)
	per := map[string]float64{"perm": 12, "perm-twopass": 16, "quicksort": 4, "mergesort": 8, "heapsort": 4, "bucket": 14, "bucket-count": 8, "radix": 14, "radix-count": 8}
	if kernel == "matmul" {
		n := int64(8)
		for n < maxCoreMatrix && 4*(n+1)*(n+1)+8*(n+1) <= l1/2 {
			n++
		}
		return OddEight(n)
	}
	n := int64(256)
	for float64(2*n)*per[kernel] <= float64(l1)/2 {
		n *= 2
	}
	return n
}

// OddEight is the largest odd multiple of 8 at most n (at least 8): the
// matrix dimensions calibration and validate run. A dimension that is a
// multiple of 128 makes a column's stride a multiple of 512 bytes, so a
// column maps to a few cache sets and conflicts where the model's fully associative
// levels see none (n = 1024 ran five times the prediction), and one that
// is no multiple of 8 leaves rows that end inside a line, which ran the
// product erratically on the development machine: 1.02, 0.99 and 1.35 ns
// an inner step at n = 1250, 1270 and 1291 against 0.78 to 0.82 at 1240,
// 1256, 1288, 1304 and 1336, odd multiples of 8, whose stride is an odd
// multiple of 32 bytes (1280 = 5·256 took 1.47).
func OddEight(n int64) int64 { return max(8, n-(n+8)%16) }

// maxCoreMatrix caps the product's calibration dimension: at 120 the
// call's share of a step is a few percent, and a call takes about a
// millisecond.
const maxCoreMatrix = 120

// medianRate is the median of the kernels' steady rates (Stat.Steady):
// the compute rate of a program that is none of them. A kernel's rate at
// another shape (the two-pass product's with several blocks) is not
// another kernel's and is left out.
func medianRate(rates map[string]Stat) float64 {
	var meds []float64
	for k, st := range rates {
		if runs(k) == k {
			meds = append(meds, st.Steady())
		}
	}
	if len(meds) == 0 {
		return 0
	}
	sort.Float64s(meds)
	return meds[len(meds)/2]
}

// coreRate measures one kernel's rate: reps samples of a coreTimer, then
// their rates on m.
func coreRate(ctx context.Context, m machine.Machine, k string, reps int, batch time.Duration) (Stat, error) {
	l1 := m.C
	if len(m.Levels) > 0 {
		l1 = m.Levels[0].Size
	}
	t, err := newCoreTimer(k, l1, m.C)
	if err != nil {
		return Stat{}, err
	}
	for r := 0; r < reps; r++ {
		if err := ctx.Err(); err != nil {
			return Stat{}, err
		}
		t.sample(batch)
	}
	return t.rates(m)
}

// coreTimer times one reference kernel on data that fit in half of the
// first cache level, one sample at a time, so that Calibrate can take its
// samples between the rounds of its curves (memSampler says why); rates
// turns them into operations per second once the machine is known.
type coreTimer struct {
	kernel string // the rate's key: a kernel, or hier.TwoPassBlocksRate
	n      int64
	cache  int64 // the cache the two-pass permutation product blocks for
	rn     Runner
	secs   []float64 // seconds per call, one per sample
	place  *rand.Rand
}

// newCoreTimer builds kernel's inputs for a first cache level of l1 bytes
// (c is the cache the two-pass permutation product blocks for) and warms
// the caches and the predictors' tables with one call.
func newCoreTimer(kernel string, l1, c int64) (*coreTimer, error) {
	t := &coreTimer{kernel: kernel, n: coreSize(kernel, l1), cache: c, place: rand.New(rand.NewPCG(11, 13))}
	if kernel == hier.TwoPassBlocksRate {
		// Blocks of n/coreBlocks elements: TwoPassBlockLength(c) is c/8.
		t.cache = 8 * max(1, t.n/coreBlocks)
	}
	if err := t.build(0); err != nil {
		return nil, err
	}
	return t, nil
}

// build makes the kernel's inputs anew with the sorts' arrays offset by
// off words (RunOptions.Offset) and warms them up with one call. Each
// sample after the first builds them at another offset: at 2^11 keys the
// counting bucket sort took 17.1 µs with its arrays at some offsets and
// 18.0 at others, and 19.4 in 3 of 16 builds where the allocator put
// them, so a timer built once gave one calibration a rate a fifth below
// the next's (2.93 against 3.57 G operations a second, each within 1 %
// over its own samples); the fastest sample is then the best of many
// placements, as the curves' fastest round is (placed).
func (c *coreTimer) build(off int) error {
	rn, err := NewRunner(runs(c.kernel), RunOptions{N: int(c.n), C: c.cache, Seed: 11, FreshKeys: true, Offset: off})
	if err != nil {
		return err
	}
	rn.Setup()
	rn.Call()
	c.rn = rn
	return nil
}

// sample times the kernel once. With batch zero it keeps the fastest of
// single calls over a millisecond (natively a call of tens of
// microseconds is well resolved); with batch positive, for a clock
// coarsened to 100 µs (a browser's), it times calls back to back for at
// least that long and takes out the time of their setups, timed the same
// way.
func (c *coreTimer) sample(batch time.Duration) {
	if len(c.secs) > 0 {
		// The kernel and size built once already, so no error.
		_ = c.build(16 * c.place.IntN(pageWords/16))
	}
	setup, run := c.rn.Setup, c.rn.Call
	var t float64
	if batch <= 0 {
		for spent := 0.0; spent < 1e-3; {
			setup()
			t0 := time.Now()
			run()
			d := time.Since(t0).Seconds()
			spent += d
			if t == 0 || d < t {
				t = d
			}
		}
	} else {
		calls := 0
		t0 := time.Now()
		for time.Since(t0) < batch || calls == 0 {
			setup()
			run()
			calls++
		}
		both := time.Since(t0).Seconds()
		t1 := time.Now()
		for i := 0; i < calls; i++ {
			setup()
		}
		t = (both - time.Since(t1).Seconds()) / float64(calls)
	}
	c.secs = append(c.secs, t)
}

// rates turns the samples into the kernel's rate on m: its operations
// over its time less what the model charges for the lines it moves and
// for its calls' mispredictions. The rate holds the kernel's other
// mispredictions (hier.Model charges only the calls' beside a kernel's
// own rate).
//
// A distribution sort whose passes the model prices without its own
// rate has a rate for its other work only, over the time the passes
// leave for it, as the model uses it: a counting sort's passes run the
// distribution curve's own loops, charged the curve's time at any rate
// (hier.Estimate's CurveLoops; the rate of all the counting bucket
// sort's work, the curve's fast loops with it, gave its calls too little
// time: it ran at 1.13 to 1.22 of its prediction in the caches on the
// development machine), as are the simple sorts' on a curve that times
// their loop too (machine.DistPoint.Put); without it the simple bucket
// sort's are charged at the simple radix sort's rate, when m has it
// (hier.Estimate's PassRate).
// A kernel with no other work (the counting radix sort) and the other
// kernels take the rate of all their work, without the curve; so does a
// kernel whose other work is under half its run (minOwnShare), as the
// simple radix sort's copy back is beside its put loops: the time left
// to that work is then the difference of two near numbers, and its rate
// moved by 24 % between two calibrations in a row on the development
// machine, where the rate of all its work moves by 2 %.
// minOwnShare is the least share of a kernel's timed run that its work
// besides the curve's loops must take for its rate to be read off that
// work alone (coreTimer.rates).
const minOwnShare = 0.5

func (c *coreTimer) rates(m machine.Machine) (Stat, error) {
	if c.kernel == hier.BucketCallsRate {
		return c.callRates(m)
	}
	bare := m
	bare.ComputeRate, bare.M = 0, 0
	// The column curve times the product's whole loop, its work too: a
	// floor on the estimate that would leave the work nothing.
	bare.ColumnCurve = nil
	bare.CoreRates = map[string]float64{}
	kernel := runs(c.kernel)
	for k, r := range m.CoreRates {
		if runs(k) != kernel {
			bare.CoreRates[k] = r
		}
	}
	e, err := hier.Model(bare, kernel, mbram.DefaultParams(c.n))
	ops := e.Work.Ops - e.PassOps
	run := Summarize(c.secs).Median
	byOtherWork := (e.CurveLoops || e.PassRate > 0) && ops > 0 && run-e.Seconds-e.Work.CallMispredicts*m.M >= minOwnShare*run
	if err == nil && !byOtherWork {
		bare.Distribution = nil
		e, err = hier.Model(bare, kernel, mbram.DefaultParams(c.n))
		ops = e.Work.Ops
	}
	if err != nil {
		return Stat{}, fmt.Errorf("core rate of %s: %v", c.kernel, err)
	}
	var rates []float64
	for _, t := range c.secs {
		// What the model charges besides the work (the lines, and the
		// calls' mispredictions, which it charges beside any rate); at
		// least a tenth of the time is left to the work, so a rate
		// stays finite.
		left := max(t-e.Seconds-e.Work.CallMispredicts*m.M, t/10)
		if !(left > 0) {
			continue // a clock that saw nothing
		}
		rates = append(rates, ops/left)
	}
	if len(rates) == 0 {
		return Stat{}, fmt.Errorf("core rate of %s: the clock resolved no run", c.kernel)
	}
	return Summarize(rates), nil
}

// HostSpeed times kernel's loop in the first cache level as calibration
// reads its core rate (reps samples, read as Stat.Steady) and returns that
// rate over the one m was calibrated with: 1 when the core runs as it did
// then, under 1 when it runs slower. On a virtual machine a neighbour on
// the core's other hardware thread takes issue slots from a loop of
// independent operations (the permutation product's): over the
// development guest's calibrations such a loop's rate moved by up to a
// fifth from one to the next, all the throughput-bound kernels' together,
// and a validate run made in a slower phase than its calibration came out
// that much over the prediction in every class. It is an error when m has
// no rate for kernel.
func HostSpeed(ctx context.Context, m machine.Machine, kernel string, reps int) (float64, error) {
	want := m.CoreRates[kernel]
	if !(want > 0) {
		return 0, fmt.Errorf("host speed: the machine has no core rate for %s", kernel)
	}
	st, err := coreRate(ctx, m, kernel, max(1, reps), 0)
	if err != nil {
		return 0, err
	}
	rate := st.Steady()
	if !(rate > 0) {
		return 0, fmt.Errorf("host speed: %s's loop gave no rate", kernel)
	}
	return rate / want, nil
}

// callRates turns the samples of the simple bucket sort at callsSize
// into its calls a second (hier.BucketCallsRate): each sample's time less
// what the model charges the sort besides its calls (its passes, its
// lines and its other work at the sort's own rate, which m holds), over
// the calls. At least a hundredth of the time is left to the calls, so a
// rate stays finite. The sort's own rate was read at a size with few
// calls, each charged its operations at that rate and its exit at the
// penalty; at 2^10 keys those 65 calls are 3 % of its time.
func (c *coreTimer) callRates(m machine.Machine) (Stat, error) {
	kernel := runs(c.kernel)
	if !(m.CoreRates[kernel] > 0) {
		return Stat{}, fmt.Errorf("core rate of %s: the %s kernel's own rate comes first", c.kernel, kernel)
	}
	bare := m
	bare.M = 0 // the calls' exits are theirs
	bare.ColumnCurve = nil
	bare.CoreRates = maps.Clone(m.CoreRates)
	delete(bare.CoreRates, c.kernel)
	e, err := hier.Model(bare, kernel, mbram.DefaultParams(c.n))
	if err != nil {
		return Stat{}, fmt.Errorf("core rate of %s: %v", c.kernel, err)
	}
	if !(e.Work.Calls > 0) || !(e.Rate > 0) {
		return Stat{}, fmt.Errorf("core rate of %s: %d keys make no calls to time", c.kernel, c.n)
	}
	base := e.Seconds - e.Work.CallOps/e.Rate
	var rates []float64
	for _, t := range c.secs {
		if left := max(t-base, t/100); left > 0 {
			rates = append(rates, e.Work.Calls/left)
		}
	}
	if len(rates) == 0 {
		return Stat{}, fmt.Errorf("core rate of %s: the clock resolved no run", c.kernel)
	}
	return Summarize(rates), nil
}
