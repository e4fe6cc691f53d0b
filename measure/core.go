package measure

import (
	"context"
	"fmt"
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
// move. The rate keeps the kernel's branch mispredictions: their count
// grows as its operations do, and a sort in L1 spends most of its time on
// them, so taking them out would leave a small difference of two noisy
// numbers (Kerncraft analyses a loop's instructions
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

// CoreRates measures every CoreKernels rate on m (whose levels,
// mispredict penalty and C the model needs) with reps samples each; a
// sample times enough calls to last about a millisecond and keeps the
// fastest call. It returns the rates with their spreads, and the median
// rate.
func CoreRates(ctx context.Context, m machine.Machine, reps int) (map[string]Stat, float64, error) {
	out := map[string]Stat{}
	for _, k := range CoreKernels {
		st, err := coreRate(ctx, m, k, reps, 0)
		if err != nil {
			return nil, 0, err
		}
		out[k] = st
	}
	return out, medianRate(out), nil
}

// medianRate is the median of the kernels' median rates: the compute rate
// of a program that is none of them.
func medianRate(rates map[string]Stat) float64 {
	var meds []float64
	for _, st := range rates {
		meds = append(meds, st.Median)
	}
	if len(meds) == 0 {
		return 0
	}
	sort.Float64s(meds)
	return meds[len(meds)/2]
}

// coreRate measures one kernel's rate. With batch zero a sample keeps the
// fastest of single calls (natively a call of tens of microseconds is
// well resolved); with batch positive, for a clock coarsened to 100 µs (a
// browser's), a sample times calls back to back for at least that long
// and takes out the time of their setups, timed the same way.
func coreRate(ctx context.Context, m machine.Machine, k string, reps int, batch time.Duration) (Stat, error) {
	l1 := m.C
	if len(m.Levels) > 0 {
		l1 = m.Levels[0].Size
	}
	bare := m
	// The rate holds the kernel's mispredictions (hier.Model charges no
	// branch term beside a kernel's own rate): only the lines the model
	// moves are taken out.
	bare.ComputeRate, bare.CoreRates, bare.M = 0, nil, 0
	n := coreSize(k, l1)
	e, err := hier.Model(bare, k, mbram.DefaultParams(n))
	if err != nil {
		return Stat{}, fmt.Errorf("core rate of %s: %v", k, err)
	}
	rn, err := NewRunner(k, RunOptions{N: int(n), C: m.C, Seed: 11, FreshKeys: true})
	if err != nil {
		return Stat{}, err
	}
	setup, run := rn.Setup, rn.Call
	setup()
	run() // warm the caches and the predictors' tables
	var rates []float64
	for r := 0; r < reps; r++ {
		if err := ctx.Err(); err != nil {
			return Stat{}, err
		}
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
		// What the model charges besides the work; at least a tenth
		// of the time is left to the work, so a rate stays finite.
		left := max(t-e.Seconds, t/10)
		if !(left > 0) {
			continue // a clock that saw nothing
		}
		rates = append(rates, e.Work.Ops/left)
	}
	if len(rates) == 0 {
		return Stat{}, fmt.Errorf("core rate of %s: the clock resolved no run", k)
	}
	return Summarize(rates), nil
}
