package superstep

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Pattern is one of the access patterns of the superstep paper's experiment suites
// (section 4.1).
type Pattern int

const (
	// LikeGather: h_r(i) = h for i <= x, 0 otherwise; h_w(i) = hx/p for
	// every i. It privileges reads.
	LikeGather Pattern = iota
	// LikeScatter: h_r(i) = hx/p for every i; h_w(i) = h for i <= x,
	// 0 otherwise. It privileges writes.
	LikeScatter
	// Vary: h_r(i) = h_w(i) = h for i <= x, 0 otherwise.
	Vary
)

func (p Pattern) String() string {
	switch p {
	case LikeGather:
		return "like-gather"
	case LikeScatter:
		return "like-scatter"
	}
	return "vary"
}

// SuiteSizes returns H = H0 ∪ H1 ∪ H2 of section 4.1:
// H0 = {5000·i : 1 <= i <= 10}, H1 = {50000·i : 1 <= i <= 10} and
// H2 = {550000 + 150000·i : 0 <= i <= 9}. With C = 2^19 = 524288, H0 and H1
// fall in R0 and H2 in R1.
func SuiteSizes() []int64 {
	var hs []int64
	for i := int64(1); i <= 10; i++ {
		hs = append(hs, 5000*i)
	}
	for i := int64(1); i <= 10; i++ {
		hs = append(hs, 50000*i)
	}
	for i := int64(0); i <= 9; i++ {
		hs = append(hs, 550000+150000*i)
	}
	return hs
}

// Experiment is one superstep of a suite.
type Experiment struct {
	Suite     int
	Pattern   Pattern
	X         int
	H         int64
	Superstep Superstep
}

// patternCounts returns the per-processor reads and writes of a Suite 1
// pattern. hx/p is rounded to the nearest integer when p does not divide hx.
func patternCounts(pat Pattern, x int, h int64, p int) (reads, writes []int64) {
	reads, writes = make([]int64, p), make([]int64, p)
	share := int64(math.Round(float64(h) * float64(x) / float64(p)))
	for i := range p {
		inside := i < x
		switch pat {
		case LikeGather:
			writes[i] = share
			if inside {
				reads[i] = h
			}
		case LikeScatter:
			reads[i] = share
			if inside {
				writes[i] = h
			}
		case Vary:
			if inside {
				reads[i], writes[i] = h, h
			}
		}
	}
	return reads, writes
}

// Suite returns the supersteps of Suite 1, 2 or 3 for p processors
// (section 4.1). For every h in SuiteSizes and 1 <= x < p it has the three
// patterns; for x = p, where "the three types of supersteps coincide", only
// one (Vary).
//
// Suite 1 is the patterns themselves. Suite 2 assigns each processor random
// reads and writes no larger than the pattern's largest, with the largest
// reached by at least one processor, so h_r and h_w are the pattern's and M
// varies. Suite 3 spreads the pattern's total M over the processors' reads
// and writes at random, so M is the pattern's and h_r, h_w vary. The random
// draws come from a PCG generator seeded with seed, so a suite is
// reproducible.
func Suite(suite, p int, seed uint64) ([]Experiment, error) {
	return SuiteOf(suite, p, SuiteSizes(), seed)
}

// SuiteOf is Suite over the access counts sizes instead of the paper's H,
// for a quicker run of the same experiments at smaller sizes.
func SuiteOf(suite, p int, sizes []int64, seed uint64) ([]Experiment, error) {
	for _, h := range sizes {
		if h < 1 || h > MaxAccesses {
			return nil, fmt.Errorf("h = %d: access counts must be from 1 to 2^50", h)
		}
	}
	if suite < 1 || suite > 3 {
		return nil, fmt.Errorf("suite %d: the superstep paper defines Suites 1, 2 and 3", suite)
	}
	if p < 1 || p > 1024 {
		return nil, fmt.Errorf("p = %d: accepted 1 to 1024 for the experiment suites", p)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(suite)<<32|uint64(p)))
	var out []Experiment
	for _, h := range sizes {
		for x := 1; x <= p; x++ {
			pats := []Pattern{LikeGather, LikeScatter, Vary}
			if x == p {
				pats = []Pattern{Vary}
			}
			for _, pat := range pats {
				r, w := patternCounts(pat, x, h, p)
				switch suite {
				case 2:
					r, w = fill(rng, maxOf(r), p), fill(rng, maxOf(w), p)
				case 3:
					r, w = spread(rng, sumOf(r)+sumOf(w), p)
				}
				out = append(out, Experiment{Suite: suite, Pattern: pat, X: x, H: h, Superstep: Superstep{Reads: r, Writes: w}})
			}
		}
	}
	return out, nil
}

func maxOf(v []int64) int64 {
	m := int64(0)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func sumOf(v []int64) int64 {
	s := int64(0)
	for _, x := range v {
		s += x
	}
	return s
}

// fill draws p counts uniformly in [0, bound] and sets one processor,
// chosen at random, to bound.
func fill(rng *rand.Rand, bound int64, p int) []int64 {
	out := make([]int64, p)
	for i := range out {
		out[i] = rng.Int64N(bound + 1)
	}
	out[rng.IntN(p)] = bound
	return out
}

// spread splits total into p reads and p writes with random weights.
func spread(rng *rand.Rand, total int64, p int) (reads, writes []int64) {
	w := make([]float64, 2*p)
	sum := 0.0
	for i := range w {
		w[i] = rng.Float64()
		sum += w[i]
	}
	c := make([]int64, 2*p)
	given := int64(0)
	for i := range w {
		c[i] = int64(math.Floor(float64(total) * w[i] / sum))
		given += c[i]
	}
	for ; given < total; given++ {
		c[rng.IntN(2*p)]++
	}
	return c[:p], c[p:]
}
