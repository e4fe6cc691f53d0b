package machine

import (
	"fmt"
	"math"
	"sort"

	"memwall/engine/units"
)

// DistPoint is one point of a machine's distribution curve: what the two
// loops of a counting sort's pass cost on this machine when each of its
// two arrays of 4-byte keys spans Size bytes, in seconds per line of keys
// (64 bytes on current machines). Count is the loop that reads the keys
// in order and bumps one of 64 counters per key; Scatter the loop that
// moves each key to its bucket's next place in the other array, 64
// buckets.
//
// The hierarchy model prices a distribution sort's passes off this
// curve, not off the levels' bandwidths: beyond the caches the scatter's
// bucket fills are stores, which wait in the core's store buffer in
// program order, and a loop that reads every word of a stream keeps far
// fewer lines in flight than the one-word-per-line walk that measures
// β1. Measured on the development machine, the two loops cost 1.9 and
// 3.7 ns a key at 64 MiB, where the levels' bandwidths charge 0.15 and
// 0.8 ns beside the work (docs/hierarchy.md). Kerncraft's ECM model
// likewise takes each level's transfer cost from a benchmark of the same
// access pattern.
type DistPoint struct {
	Size    int64   `json:"size"`
	Count   float64 `json:"count"`
	Scatter float64 `json:"scatter"`
}

// MaxDistPoints bounds the points of a distribution curve.
const MaxDistPoints = 64

// MaxLineTime bounds a distribution curve's time per line of keys: far
// above a line's fill from memory on any machine (some 100 ns), far
// below what makes a prediction overflow.
const MaxLineTime = 1e-5

// ValidateDistribution checks a distribution curve: at most MaxDistPoints
// points, sizes from 1 KiB to 1 TiB in increasing order, times positive
// and up to 10 µs a line. Errors name the point and field, as
// distribution[2].scatter.
func ValidateDistribution(ps []DistPoint) Errors {
	var es Errors
	add := es.Add
	if len(ps) > MaxDistPoints {
		add("distribution", "a distribution curve has at most %d points; got %d", MaxDistPoints, len(ps))
		return es
	}
	if len(ps) == 1 {
		add("distribution", "a distribution curve needs at least two points (sizes in and beyond the caches); got one")
	}
	for i, p := range ps {
		at := fmt.Sprintf("distribution[%d]", i)
		switch {
		case p.Size < 1<<10 || p.Size > MaxCache:
			add(at+".size", "a point's size must be from 1 KiB to 1 TiB; got %d B", p.Size)
		case i > 0 && p.Size <= ps[i-1].Size:
			add(at+".size", "the points' sizes must increase: %s follows %s", units.FormatSize(p.Size), units.FormatSize(ps[i-1].Size))
		}
		for _, t := range []struct {
			name string
			v    float64
		}{{"count", p.Count}, {"scatter", p.Scatter}} {
			if math.IsNaN(t.v) || t.v <= 0 || t.v > MaxLineTime {
				add(at+"."+t.name, "time per line of keys must be above 0 and up to 10 µs (e.g. 30 ns); got %s", fmtTime(t.v))
			}
		}
	}
	return es
}

// DistributionAt is the count and scatter loops' seconds per line of
// keys for arrays of size bytes: the curve read between its points
// linearly in log size, and held at its ends beyond them. ok is false
// when the machine has no curve.
func (m Machine) DistributionAt(size float64) (count, scatter float64, ok bool) {
	ps := m.Distribution
	if len(ps) < 2 {
		return 0, 0, false
	}
	if size <= float64(ps[0].Size) {
		return ps[0].Count, ps[0].Scatter, true
	}
	last := ps[len(ps)-1]
	if size >= float64(last.Size) {
		return last.Count, last.Scatter, true
	}
	j := sort.Search(len(ps), func(i int) bool { return float64(ps[i].Size) >= size })
	lo, hi := ps[j-1], ps[j]
	f := math.Log(size/float64(lo.Size)) / math.Log(float64(hi.Size)/float64(lo.Size))
	return lo.Count + f*(hi.Count-lo.Count), lo.Scatter + f*(hi.Scatter-lo.Scatter), true
}
