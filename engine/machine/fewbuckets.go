package machine

import (
	"math"
)

// FewPoint is one point of a machine's few-bucket curve: what the
// distribution sorts' three loops cost, in seconds per line of 4-byte
// keys, when they distribute into Buckets buckets (fewer than the
// distribution curve's 64) over arrays that sit in the caches.
//
// Each loop reads a bucket's counter (a count, a position, a length),
// adds one and stores it back, and the next key of the same bucket reads
// that store: its load waits for the store to forward, some four to ten
// cycles, where the loop otherwise takes two or three cycles a key. Into
// 64 buckets the next key of a bucket comes some 64 keys later and the
// chains overlap; into two, every second key waits on the one before.
// Measured on the Zen 5 guest of docs/hierarchy.md with 16Ki keys in L2,
// the count took 15.9 ns a line of keys into 2 buckets, 9.6 into 4 and
// 7.8 into 64; the scatter 18.7, 13.3 and 11.1; the simple sorts' put
// 20.4, 18.0 and 15.6. A radix sort of N keys into 64 buckets has such a
// digit whenever log2 N is not a multiple of 6: its least significant
// digit takes the bits left over.
type FewPoint struct {
	Buckets int     `json:"buckets"`
	Count   float64 `json:"count"`
	Scatter float64 `json:"scatter"`
	// Put is the simple sorts' loop, 0 when not measured.
	Put float64 `json:"put,omitempty"`
}

// MaxFewPoints bounds the points of a few-bucket curve.
const MaxFewPoints = 16

// ValidateFewBuckets checks a few-bucket curve: none, or two to
// MaxFewPoints points whose buckets increase from 1 to CurveBuckets − 1,
// with count and scatter above 0 and up to 10 µs a line and put from 0
// to 10 µs. Errors name the point and field, as few_buckets[1].count.
func ValidateFewBuckets(ps []FewPoint) Errors {
	var es Errors
	add := es.Add
	if !curveCount(&es, "few_buckets", "few-bucket curve", "bucket counts", len(ps), MaxFewPoints) {
		return es
	}
	for i, p := range ps {
		at := func(field string) string { return fieldAt("few_buckets", i, field) }
		switch {
		case p.Buckets < 1 || p.Buckets >= CurveBuckets:
			add(at("buckets"), "a point's buckets must be a whole number from 1 to %d; got %d", CurveBuckets-1, p.Buckets)
		case i > 0 && p.Buckets <= ps[i-1].Buckets:
			add(at("buckets"), "the points' buckets must increase: %d follows %d", p.Buckets, ps[i-1].Buckets)
		}
		checkLoopTimes(&es, at, "15 ns", p.Count, p.Scatter)
		if math.IsNaN(p.Put) || p.Put < 0 || p.Put > MaxLineTime {
			add(at("put"), "the simple sorts' put time per line of keys must be from 0 to 10 µs (e.g. 20 ns), 0 when not measured; got %s", fmtTime(p.Put))
		}
	}
	return es
}

// FewBucketsAt is the three loops' seconds per line of keys into b
// buckets in the caches: the curve read between its points linearly in
// log b and held at its first point below it. Past its last point, from
// where the distribution curve's 64 buckets take over, and on a machine
// without the curve, ok is false. put is 0 where the curve did not time
// it.
func (m Machine) FewBucketsAt(b float64) (count, scatter, put float64, ok bool) {
	ps := m.FewBuckets
	if len(ps) < 2 || !(b <= float64(ps[len(ps)-1].Buckets)) {
		return 0, 0, 0, false
	}
	lo, hi, f := logBracket(ps, b, func(p FewPoint) int64 { return int64(p.Buckets) })
	if lo.Put <= 0 || hi.Put <= 0 {
		lo.Put, hi.Put = 0, 0
	}
	return lo.Count + f*(hi.Count-lo.Count), lo.Scatter + f*(hi.Scatter-lo.Scatter), lo.Put + f*(hi.Put-lo.Put), true
}
