package lang

import (
	"context"
	"fmt"
	"math"

	"memwall/engine/machine"
	"memwall/engine/sim"
)

// ComparePoint is both programs' simulated times at one size.
type ComparePoint struct {
	Size int64   `json:"size"`
	A    float64 `json:"a_seconds"`
	B    float64 `json:"b_seconds"`
}

// Ratio is B's time over A's.
func (p ComparePoint) Ratio() float64 { return p.B / p.A }

// Comparison is two programs over a range of sizes.
type Comparison struct {
	Size   string         `json:"size_param"`
	Points []ComparePoint `json:"points"`
	// Crossovers are the sizes where the faster program changes,
	// interpolated between the simulated sizes on the log scales.
	Crossovers []float64 `json:"crossovers"`
}

// Sizes is a ladder from lo to hi with perDoubling sizes per factor of two.
func Sizes(lo, hi int64, perDoubling int) []int64 {
	if lo < 1 {
		lo = 1
	}
	if perDoubling < 1 {
		perDoubling = 1
	}
	r := math.Pow(2, 1/float64(perDoubling))
	var out []int64
	for x := float64(lo); ; x *= r {
		n := int64(math.Round(x))
		if n >= hi {
			out = append(out, hi)
			return out
		}
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
}

// MaxCompareSizes bounds the sizes of a comparison.
const MaxCompareSizes = 200

// Compare simulates a and b at each size of their common size param
// (the same name in both) with the same other options.
func Compare(ctx context.Context, a, b *Program, size string, sizes []int64, m machine.Machine, pred sim.Predictor, o Options, step func(done, total int)) (*Comparison, error) {
	if len(sizes) == 0 || len(sizes) > MaxCompareSizes {
		return nil, fmt.Errorf("sizes: give from 1 to %d sizes; got %d", MaxCompareSizes, len(sizes))
	}
	if size == "" && len(a.Params) > 0 {
		size = a.Params[0].Name
	}
	for k, p := range []*Program{a, b} {
		if _, ok := p.Param(size); !ok {
			return nil, fmt.Errorf("size: program %c has no param %s (%s)", 'A'+k, size, p.paramList())
		}
	}
	out := &Comparison{Size: size}
	// The comparison is of the MBRAM simulator's times, so the hierarchy
	// simulator is left out of its runs.
	m.Levels = nil
	for i, n := range sizes {
		var t [2]float64
		for k, p := range []*Program{a, b} {
			opt := o
			opt.MissCurve = false // the comparison draws times only
			opt.Params = map[string]int64{}
			for name, v := range o.Params {
				if _, ok := p.Param(name); ok {
					opt.Params[name] = v
				}
			}
			opt.Params[size] = n
			r, err := p.Run(ctx, m, pred, opt)
			if err != nil {
				return nil, fmt.Errorf("program %c at %s = %d: %w", 'A'+k, size, n, err)
			}
			t[k] = r.Seconds
		}
		out.Points = append(out.Points, ComparePoint{Size: n, A: t[0], B: t[1]})
		if step != nil {
			step(i+1, len(sizes))
		}
	}
	out.Crossovers = crossovers(out.Points)
	return out, nil
}

// crossovers finds where log(B/A) changes sign between neighbouring
// sizes, interpolating linearly in log(size).
func crossovers(pts []ComparePoint) []float64 {
	var out []float64
	for i := 1; i < len(pts); i++ {
		p, q := pts[i-1], pts[i]
		if !(p.A > 0 && p.B > 0 && q.A > 0 && q.B > 0) {
			continue
		}
		u, v := math.Log(p.B/p.A), math.Log(q.B/q.A)
		if u == 0 && i == 1 {
			out = append(out, float64(p.Size))
		}
		if u*v < 0 || v == 0 && u != 0 {
			f := u / (u - v)
			x := math.Exp(math.Log(float64(p.Size)) + f*(math.Log(float64(q.Size))-math.Log(float64(p.Size))))
			out = append(out, x)
		}
	}
	return out
}
