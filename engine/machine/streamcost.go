package machine

import (
	"math"
)

// StreamPoint is one point of a machine's stream curve: what the
// counting sorts' scatter loop costs, in seconds per line of 4-byte
// keys, when it moves keys read in one stream into Buckets buckets that
// each fill a stream of their own, its two arrays well beyond the last
// cache.
//
// A core's prefetcher follows a limited number of streams, but the cost
// of many streams is not a step at that number: on the AMD guest of
// docs/hierarchy.md the loop took 17 ns a line into 8 to 20 buckets, 27
// into 28 to 40, 45 into 48 to 60, 22 into 64 and 19 again into 80 to
// 160, over arrays of 45, 64 and 90 MiB alike (over 64 MiB 128 to 256
// buckets also ran slow, a placement calibration's faster of two sizes
// leaves out), and the two-pass permutation product's phases through
// its blocks slowed in the same band of block counts. The
// hierarchy model prices the lines a kernel moves through many streams
// at once at the curve's excess over its fastest point
// (Machine.StreamExcess), so that what calibration measured at the
// kernel's number of streams is what the kernel is charged.
type StreamPoint struct {
	Buckets int     `json:"buckets"`
	Scatter float64 `json:"scatter"`
}

// MaxStreamPoints bounds the points of a stream curve.
const MaxStreamPoints = 64

// ValidateStreamCost checks a stream curve: none, or two to
// MaxStreamPoints points whose buckets increase from MinStreams to
// MaxStreams, with times above 0 and up to 10 µs a line. Errors name the
// point and field, as stream_cost[2].scatter.
func ValidateStreamCost(ps []StreamPoint) Errors {
	var es Errors
	add := es.Add
	if !curveCount(&es, "stream_cost", "stream curve", "bucket counts", len(ps), MaxStreamPoints) {
		return es
	}
	for i, p := range ps {
		at := func(field string) string { return fieldAt("stream_cost", i, field) }
		switch {
		case p.Buckets < MinStreams || p.Buckets > MaxStreams:
			add(at("buckets"), "a point's buckets must be a whole number from %d to %d; got %d", MinStreams, MaxStreams, p.Buckets)
		case i > 0 && p.Buckets <= ps[i-1].Buckets:
			add(at("buckets"), "the points' buckets must increase: %d follows %d", p.Buckets, ps[i-1].Buckets)
		}
		if math.IsNaN(p.Scatter) || p.Scatter <= 0 || p.Scatter > MaxLineTime {
			add(at("scatter"), "time per line of keys must be above 0 and up to 10 µs (e.g. 20 ns); got %s", fmtTime(p.Scatter))
		}
	}
	return es
}

// curveCount adds to es the errors of a curve of n points named key:
// more than max, or one, which draws no line (need says what two points
// are, for the message). ok is false past max, where the points are not
// worth checking one by one.
func curveCount(es *Errors, key, noun, need string, n, max int) (ok bool) {
	switch {
	case n > max:
		es.Add(key, "a %s has at most %d points; got %d", noun, max, n)
		return false
	case n == 1:
		es.Add(key, "a %s needs at least two points (%s); got one", noun, need)
	}
	return true
}

// StreamExcess is what a line moved through b streams at once costs
// beyond a line of the fastest scatter of the machine's stream curve, in
// seconds: the curve read between its points linearly in log b, less
// its fastest point. ok is false when the machine has no curve or b lies
// outside it, before its first point or past its last, where the curve
// says nothing and Machine.Streams decides.
func (m Machine) StreamExcess(b float64) (excess float64, ok bool) {
	ps := m.StreamCost
	if len(ps) < 2 || !(b >= float64(ps[0].Buckets) && b <= float64(ps[len(ps)-1].Buckets)) {
		return 0, false
	}
	fastest, _ := m.StreamEnds()
	lo, hi, f := logBracket(ps, b, func(p StreamPoint) int64 { return int64(p.Buckets) })
	return lo.Scatter + f*(hi.Scatter-lo.Scatter) - fastest.Scatter, true
}

// StreamAt is the machine's stream curve at b buckets, in seconds per
// line of keys: read between its points linearly in log b, and below
// its first point the first's (a scatter into fewer streams than the
// fewest timed is no slower). ok is false when the machine has no curve
// or b lies past its last point.
func (m Machine) StreamAt(b float64) (float64, bool) {
	ps := m.StreamCost
	if len(ps) < 2 || !(b > 0) || b > float64(ps[len(ps)-1].Buckets) {
		return 0, false
	}
	lo, hi, f := logBracket(ps, b, func(p StreamPoint) int64 { return int64(p.Buckets) })
	return lo.Scatter + f*(hi.Scatter-lo.Scatter), true
}

// StreamEnds is the fastest and the slowest point of the machine's
// stream curve, the first of each when several tie; zero points when it
// has none.
func (m Machine) StreamEnds() (fast, slow StreamPoint) {
	if len(m.StreamCost) == 0 {
		return StreamPoint{}, StreamPoint{}
	}
	fast, slow = m.StreamCost[0], m.StreamCost[0]
	for _, p := range m.StreamCost[1:] {
		if p.Scatter < fast.Scatter {
			fast = p
		}
		if p.Scatter > slow.Scatter {
			slow = p
		}
	}
	return fast, slow
}
