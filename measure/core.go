package measure

import (
	"context"
	"fmt"
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
// over its time less what the model charges for mispredictions and for
// the few lines that still move (Kerncraft analyses a loop's instructions
// for the same in-core term; memwall measures it). The machine's
// ComputeRate, for programs that are none of these kernels, is the median
// of the kernels' rates.

// CoreKernels are the kernels whose rates CoreRates measures.
var CoreKernels = []string{"perm", "perm-twopass", "matmul", "quicksort", "mergesort", "heapsort", "bucket", "bucket-count", "radix", "radix-count"}

// coreSize is the largest power of two n whose data fit in half of l1
// bytes (at least 256, or 16 for the matrix dimension).
func coreSize(kernel string, l1 int64) int64 {
	per := map[string]float64{"perm": 12, "perm-twopass": 16, "quicksort": 4, "mergesort": 8, "heapsort": 4, "bucket": 14, "bucket-count": 8, "radix": 14, "radix-count": 8}
	if kernel == "matmul" {
		n := int64(16)
		for 3*4*(2*n)*(2*n) <= l1/2 {
			n *= 2
		}
		return n
	}
	n := int64(256)
	for float64(2*n)*per[kernel] <= float64(l1)/2 {
		n *= 2
	}
	return n
}

// coreRun returns a setup (run before every timed call, outside its
// time) and the kernel's call for n.
func coreRun(kernel string, n int, m machine.Machine) (setup, run func()) {
	rng := rand.New(rand.NewPCG(11, uint64(n)))
	permOf := func() []uint32 {
		p := make([]uint32, n)
		for i := range p {
			p[i] = uint32(i)
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		return p
	}
	nop := func() {}
	switch kernel {
	case "perm", "perm-twopass":
		x, y, z, d := permOf(), permOf(), make([]uint32, n), make([]uint32, n)
		if kernel == "perm" {
			return nop, func() { PermTraditional(z, y, x) }
		}
		bl := TwoPassBlockLength(m.C)
		ptr := make([]int, (n+bl-1)/bl)
		return nop, func() { PermTwoPass(z, y, x, d, ptr, bl) }
	case "matmul":
		p, q, c := make([]uint32, n*n), make([]uint32, n*n), make([]uint32, n*n)
		for i := range p {
			p[i], q[i] = rng.Uint32N(1<<16), rng.Uint32N(1<<16)
		}
		return nop, func() { MatMul(c, p, q, n) }
	}
	a, tmp := make([]uint32, n), make([]uint32, n)
	work := make([]uint32, SortWork(n, 6))
	kb := KeyBits(uint64(n))
	// Fresh keys for every call: on the same keys again and again a
	// current branch predictor learns a small sort's comparisons.
	setup = func() {
		for i := range a {
			a[i] = rng.Uint32N(uint32(n))
		}
	}
	switch kernel {
	case "quicksort":
		run = func() { Quicksort(a) }
	case "mergesort":
		run = func() { Mergesort(a, tmp) }
	case "heapsort":
		run = func() { Heapsort(a) }
	case "bucket":
		run = func() { BucketSortIn(a, work, kb, 6) }
	case "bucket-count":
		run = func() { BucketSortCountIn(a, work, kb, 6) }
	case "radix":
		run = func() { RadixSortIn(a, work, kb, 6) }
	case "radix-count":
		run = func() { RadixSortCountIn(a, work, kb, 6) }
	}
	return setup, run
}

// CoreRates measures every CoreKernels rate on m (whose levels,
// mispredict penalty and C the model needs) with reps samples each; a
// sample times enough calls to last about a millisecond and keeps the
// fastest call. It returns the rates with their spreads, and the median
// rate.
func CoreRates(ctx context.Context, m machine.Machine, reps int) (map[string]Stat, float64, error) {
	l1 := m.C
	if len(m.Levels) > 0 {
		l1 = m.Levels[0].Size
	}
	bare := m
	bare.ComputeRate, bare.CoreRates = 0, nil
	out := map[string]Stat{}
	var meds []float64
	for _, k := range CoreKernels {
		n := coreSize(k, l1)
		e, err := hier.Model(bare, k, mbram.DefaultParams(n))
		if err != nil {
			return nil, 0, fmt.Errorf("core rate of %s: %v", k, err)
		}
		setup, run := coreRun(k, int(n), m)
		setup()
		run() // warm the caches and the predictors' tables
		var rates []float64
		for r := 0; r < reps; r++ {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
			best := 0.0
			for spent := 0.0; spent < 1e-3; {
				setup()
				t0 := time.Now()
				run()
				d := time.Since(t0).Seconds()
				spent += d
				if best == 0 || d < best {
					best = d
				}
			}
			// What the model charges besides the work; at least a tenth
			// of the time is left to the work, so a rate stays finite.
			left := max(best-e.Seconds, best/10)
			rates = append(rates, e.Work.Ops/left)
		}
		st := Summarize(rates)
		out[k] = st
		meds = append(meds, st.Median)
	}
	sort.Float64s(meds)
	return out, meds[len(meds)/2], nil
}
