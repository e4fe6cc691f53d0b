package measure

import (
	"context"
	"math"
	"slices"
	"sort"
	"time"
)

// Stat is the robust summary of repeated measurements of one quantity: the
// median, and the spread as the interquartile range divided by the median
// (0.05 means the middle half of the repetitions lies within 5% of each
// other). The median ignores the odd repetition that another process on the
// same core slowed down, which a mean would not.
type Stat struct {
	Median  float64   `json:"median"`
	Spread  float64   `json:"spread"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Samples []float64 `json:"samples,omitempty"`
}

// Summarize computes a Stat. It returns the zero Stat for no samples.
func Summarize(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	st := Stat{Median: quantile(s, 0.5), Min: s[0], Max: s[len(s)-1], Samples: append([]float64(nil), xs...)}
	if st.Median != 0 {
		st.Spread = math.Abs(quantile(s, 0.75)-quantile(s, 0.25)) / math.Abs(st.Median)
	}
	return st
}

// Steady is the highest value that at least one sample in ten reaches
// (the largest when there are fewer than ten), and Max when st keeps no
// samples: the fastest rate of a kernel's loop that the core held, not
// the one spell it ran faster. A guest's core runs at a few speeds, the
// host's clock steps (1.16 apart from the slowest to the fastest on the
// development guest), and one sample at the fastest once set a
// calibration's permutation product rate 15.8 % above the calibration
// before it ("Core rates" in docs/hierarchy.md).
func (st Stat) Steady() float64 {
	if len(st.Samples) == 0 {
		return st.Max
	}
	s := slices.Sorted(slices.Values(st.Samples))
	return s[len(s)-1-len(s)/10]
}

// round is sample r of st alone, as the median and the least (st's
// median when st has fewer samples): the point in one round of a curve
// (roundsOf), for reading a parameter off each round apart.
func (st Stat) round(r int) Stat {
	v := st.Median
	if r < len(st.Samples) {
		v = st.Samples[r]
	}
	return Stat{Median: v, Min: v}
}

// quantile interpolates linearly between order statistics of sorted s.
func quantile(s []float64, q float64) float64 {
	if len(s) == 1 {
		return s[0]
	}
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	f := pos - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}

// repeat times fn once to warm up (page faults, caches, branch predictors and
// CPU frequency settle) and then reps times, and returns the seconds of each
// timed run. It stops early with ctx's error when ctx is cancelled.
func repeat(ctx context.Context, reps int, fn func()) ([]float64, error) {
	return repeatAfter(ctx, reps, nil, fn)
}

// repeatAfter is repeat with prepare (when not nil) run before each timed
// run and left out of its time: a cache flush, for instance.
func repeatAfter(ctx context.Context, reps int, prepare, fn func()) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fn()
	out := make([]float64, 0, reps)
	for r := 0; r < reps; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if prepare != nil {
			prepare()
		}
		t0 := time.Now()
		fn()
		out = append(out, time.Since(t0).Seconds())
	}
	return out, nil
}

// rates turns seconds into units per second (bytes/s, accesses/s).
func rates(secs []float64, units float64) []float64 {
	out := make([]float64, len(secs))
	for i, s := range secs {
		if s <= 0 {
			s = 1e-9 // a clock too coarse to see the run; cap the rate rather than divide by zero
		}
		out[i] = units / s
	}
	return out
}

// per turns seconds into seconds per unit (per access, per iteration).
func per(secs []float64, units float64) []float64 {
	out := make([]float64, len(secs))
	for i, s := range secs {
		out[i] = s / units
	}
	return out
}

// sink keeps results of benchmark loops alive so the compiler cannot drop
// the loops.
var sink uint64
