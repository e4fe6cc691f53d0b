package hier

import (
	"fmt"
	"math"

	"memwall/engine/machine"
)

// PermLevel is the expected traffic of one level in the traditional
// permutation product Z[i] = Y[X[i]] (docs/hierarchy.md derives it). The
// counts are expectations, so fractional.
type PermLevel struct {
	Level machine.Level `json:"level"`
	// HitY is the probability that a read of Y hits the level once the
	// level is full; Window is the iterations (elements of Z) it takes
	// to fill, or N when it never does.
	HitY   float64 `json:"hit_y"`
	Window float64 `json:"window"`
	// YMisses are the reads of Y that miss the level; Fills adds the
	// lines of X and Z, each filled once.
	YMisses       float64 `json:"y_misses"`
	Fills         float64 `json:"fills"`
	SeqFills      float64 `json:"sequential_fills"`
	RandFills     float64 `json:"random_fills"`
	Writebacks    float64 `json:"writebacks"`
	SeqWritebacks float64 `json:"sequential_writebacks"`
	Seconds       float64 `json:"seconds"`
}

// PermProduct is the expected traffic of each level of c in the
// permutation product of n elements of w bytes (X, Y and Z laid out as
// the kernel lays them, each aligned to a line), and the total time. The
// forms hold when every level holds many lines (64 or more) and each array
// spans many lines of every level (N·w/Line ≥ 256); w must be a power of
// two no longer than the first level's line.
func PermProduct(c Config, n, w int64) ([]PermLevel, float64, error) {
	if err := c.Validate(); err != nil {
		return nil, 0, err
	}
	if n < 1 || w < 1 || w&(w-1) != 0 || w > c.Levels[0].Line {
		return nil, 0, fmt.Errorf("perm: need n ≥ 1 and w a power of two up to the first level's line (%d B); got n = %d, w = %d", c.Levels[0].Line, n, w)
	}
	k := c.Window
	if k == 0 {
		k = DefaultWindow
	}
	N := float64(n)
	var out []PermLevel
	total := 0.0
	for _, l := range c.Levels {
		b := float64(l.Line)
		per := b / float64(w)       // elements a line
		m := math.Ceil(N / per)     // lines of each array
		lines := float64(l.Lines()) // lines of the level
		r := 2 * float64(w) / b     // lines of X and Z an iteration adds
		hit, win := permHit(lines, m, N, r)
		hitsY := 0.0
		if win >= N {
			// The level never fills: every line of Y misses once.
			win = N
			hitsY = N - m*(1-math.Exp(-N/m))
		} else {
			hitsY = win - m*hit + (N-win)*hit
		}
		p := PermLevel{Level: l, HitY: hit, Window: win}
		p.YMisses = N - hitsY
		p.Fills = 2*m + p.YMisses
		// A line of X (or Z) continues its stream when its previous line
		// is among the level's last K−1 fills: between the two come the
		// other array's line and the misses of Y over one line's
		// elements, Binomial(per, 1 − hit).
		seq := binomialCDF(int(per), 1-hit, k-3)
		// A fill of Y is sequential by chance when its line is next to
		// one of the lines of Y filled among the last K−1 fills, which
		// are still the ends of their one-line streams.
		ys := p.YMisses / p.Fills * float64(k-1)
		seqY := 1 - math.Pow(1-2/m, ys)
		p.SeqFills = 2*(m-1)*seq + p.YMisses*seqY
		p.RandFills = p.Fills - p.SeqFills
		p.Writebacks = m // the lines of Z
		p.SeqWritebacks = (m - 1) * seq
		sq, rd := lineSeconds(l, p.SeqFills, p.RandFills, p.Writebacks)
		p.Seconds = sq + rd
		total += p.Seconds
		out = append(out, p)
	}
	return out, total, nil
}

// permHit solves for the probability f that a read of Y hits a full
// level of `lines` lines: over the last k iterations the level holds the
// lines of Y read in them, m·(1 − e^(−k/m)) = m·f, and the lines of X and
// Z, r·k, so lines = m·f − r·m·ln(1 − f). It returns f and k.
//
// g(f) = m·f − r·m·ln(1 − f) − lines rises and is convex on [0, 1), from
// −lines to +∞, so Newton's steps find its root in a few turns; a step
// that leaves the bracket the turns have narrowed bisects it instead.
// (Bisection alone took some 55 turns, each with a logarithm: half the
// time of the product's whole estimate.)
func permHit(lines, m, n, r float64) (float64, float64) {
	g := func(f float64) float64 { return m*f - r*m*math.Log1p(-f) - lines }
	lo, hi := 0.0, 1.0 // g(lo) ≤ 0 < g(hi)
	f := math.Min(lines/m, 0.5)
	for range 100 {
		v := g(f)
		if v <= 0 {
			lo = f
		} else {
			hi = f
		}
		next := f - v/(m+r*m/(1-f))
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == f || next == lo || next == hi {
			break
		}
		f = next
	}
	return f, -m * math.Log1p(-f)
}

// binomialCDF is P(Binomial(n, p) ≤ k).
func binomialCDF(n int, p float64, k int) float64 {
	if k < 0 {
		return 0
	}
	if k >= n {
		return 1
	}
	if p >= 1 {
		return 0
	}
	sum, term := 0.0, math.Pow(1-p, float64(n))
	for i := 0; i <= k; i++ {
		sum += term
		term *= float64(n-i) / float64(i+1) * p / (1 - p)
	}
	return math.Min(sum, 1)
}
