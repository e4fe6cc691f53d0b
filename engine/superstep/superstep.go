package superstep

import (
	"fmt"
	"math"
)

// MaxProcessors bounds the processor count of a superstep. The paper's
// machine had 16 processors and its tables stop at p = 12; the bound only
// keeps per-processor slices and the p² terms of sample sort finite.
const MaxProcessors = 1 << 16

// MaxAccesses bounds any access count, so that sums over processors and the
// products with coefficients stay exact in float64 (2^53) and finite.
const MaxAccesses = 1 << 50

// Superstep is one superstep's global accesses: processor i performs
// Reads[i] global reads in the copy-in phase and Writes[i] global writes in
// the copy-out phase (the superstep paper, sections 3 and 4: h_ri and h_wi).
type Superstep struct {
	Reads, Writes []int64
}

// Validate checks that the superstep has at least one processor, as many
// write counts as read counts, and counts in [0, MaxAccesses].
func (s Superstep) Validate() error {
	p := len(s.Reads)
	if p == 0 {
		return fmt.Errorf("superstep: no processors (give h_r(i) and h_w(i) for i = 1..p)")
	}
	if len(s.Writes) != p {
		return fmt.Errorf("superstep: %d read counts but %d write counts; give one of each per processor", p, len(s.Writes))
	}
	if p > MaxProcessors {
		return fmt.Errorf("superstep: %d processors; at most %d are accepted", p, MaxProcessors)
	}
	var total int64
	for i := range p {
		for _, c := range []struct {
			name string
			v    int64
		}{{"h_r", s.Reads[i]}, {"h_w", s.Writes[i]}} {
			if c.v < 0 || c.v > MaxAccesses {
				return fmt.Errorf("superstep: %s(%d) = %d; accepted 0 to 2^50", c.name, i+1, c.v)
			}
		}
		total += s.Reads[i] + s.Writes[i]
		if total > MaxAccesses {
			return fmt.Errorf("superstep: the total number of accesses exceeds 2^50")
		}
	}
	return nil
}

// Counts returns the superstep's h_r, h_w and M.
func (s Superstep) Counts() (Counts, error) {
	if err := s.Validate(); err != nil {
		return Counts{}, err
	}
	var c Counts
	var m int64
	for i := range s.Reads {
		c.Hr = max(c.Hr, float64(s.Reads[i]))
		c.Hw = max(c.Hw, float64(s.Writes[i]))
		m += s.Reads[i] + s.Writes[i]
	}
	c.M = float64(m)
	return c, nil
}

// Counts are the features every cost function starts from (the superstep paper,
// section 4.2.1): the largest number of reads done by one processor, the
// largest number of writes done by one processor, and the total number of
// reads and writes done by all processors.
type Counts struct {
	Hr, Hw, M float64
}

// Validate checks that the counts are finite, in [0, MaxAccesses], and
// consistent: M >= h_r + h_w, since the processor that reads h_r words and
// the one that writes h_w words (the same one or not) contribute at least
// that much to the total.
func (c Counts) Validate() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"h_r", c.Hr}, {"h_w", c.Hw}, {"M", c.M}} {
		if math.IsNaN(v.x) || v.x < 0 || v.x > MaxAccesses {
			return fmt.Errorf("%s = %g; accepted 0 to 2^50", v.name, v.x)
		}
	}
	// A relative slack absorbs rounding in counts read from measured files.
	if c.M < (c.Hr+c.Hw)*(1-1e-12) {
		return fmt.Errorf("M = %g is less than h_r + h_w = %g; M counts every access of every processor", c.M, c.Hr+c.Hw)
	}
	return nil
}

// Features are the columns the cost functions are written over (the superstep paper,
// section 4.2.1). Hrc and Hwc are the reads and writes that fall within the
// first C words (the cache, primed before a Good superstep); Hrm and Hwm the
// rest. On the SGI Power Challenge C = 2^19 integers (2 MB of L2 cache).
type Features struct {
	Hr, Hw, H, M       float64
	Hrc, Hrm, Hwc, Hwm float64
}

// Columns names the feature columns in the order of Features' fields; these
// are the names a cost function's terms and a measured data set use.
var Columns = []string{"h_r", "h_w", "h", "M", "h_rc", "h_rm", "h_wc", "h_wm"}

// Features derives the feature vector with cache size cacheWords (in words,
// the unit of the counts). The paper splits the counts of the busiest
// processor: "we considered the first 2^19 reads/writes as contributing to
// hrc/hwc, and the remaining ones as contributing to hrm/hwm", reads and
// writes each against C, because a Good processor writes the same words it
// read (indices (i−1)·tmax + k for both, section 4).
func (c Counts) Features(cacheWords float64) Features {
	return Features{
		Hr: c.Hr, Hw: c.Hw, H: max(c.Hr, c.Hw), M: c.M,
		Hrc: min(c.Hr, cacheWords), Hrm: max(c.Hr-cacheWords, 0),
		Hwc: min(c.Hw, cacheWords), Hwm: max(c.Hw-cacheWords, 0),
	}
}

// Value returns the feature named col (one of Columns) and whether the name
// is known.
func (f Features) Value(col string) (float64, bool) {
	switch col {
	case "h_r":
		return f.Hr, true
	case "h_w":
		return f.Hw, true
	case "h":
		return f.H, true
	case "M":
		return f.M, true
	case "h_rc":
		return f.Hrc, true
	case "h_rm":
		return f.Hrm, true
	case "h_wc":
		return f.Hwc, true
	case "h_wm":
		return f.Hwm, true
	}
	return 0, false
}
