package machine

import (
	"math"
	"slices"
	"sort"

	"memwall/engine/units"
)

// DistPoint is one point of a machine's distribution curve: what the
// loops of a distribution sort's pass cost on this machine when each of
// its two arrays of 4-byte keys spans Size bytes, in seconds per line of
// keys (64 bytes on current machines). Count is the counting sorts' loop
// that reads the keys in order and bumps one of 64 counters per key;
// Scatter their loop that moves each key to its bucket's next place in
// the other array, 64 buckets; Put (below) the simple sorts' scatter.
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
//
// Walk, when measured (0: not), is what address translation adds to a
// read when the reads go round a cycle of lines one to a 4 KiB page
// across Size bytes, over the same number of lines side by side, in
// seconds per read. A matrix product's column walk is such a cycle: its
// lines stay cached while its pages outnumber the translation buffer's
// entries, and then every read waits for a page walk (7.6 ns here past
// 2048 pages, where the lines side by side cost 0.4). The levels' own
// random rates already pay the walks of reads spread over a level.
//
// Put, when measured (0: not), is the simple distribution sorts' own
// scatter loop over the first PutKeys of the same keys, in seconds per
// line of keys: each key to the end of its bucket, 64 buckets of a
// fixed capacity side by side in the other array, each bucket's length
// checked against the capacity. It is another loop than Scatter, with
// three more operations a key: in the caches, where a
// pass costs its work, it took 16.5 to 19 ns a line where the scatter
// took 13 to 16 on the development machine; a curve of the scatter
// priced it only with a work rate read elsewhere. A curve has Put at
// every point or at none.
type DistPoint struct {
	Size    int64   `json:"size"`
	Count   float64 `json:"count"`
	Scatter float64 `json:"scatter"`
	Walk    float64 `json:"walk,omitempty"`
	Put     float64 `json:"put,omitempty"`
}

// CurveBuckets is the buckets the curve's Scatter and Put loops
// distribute into (measure's distribution curve, the paper's b).
const CurveBuckets = 64

// WalkPage is the page DistPoint.Walk reads one line of: 4 KiB, the base
// page of x86 and of most ARM systems (a machine with larger pages reads
// several of the walk's lines on one, as a matrix column of the same
// stride does).
const WalkPage = 4096

// MaxDistPoints bounds the points of a distribution curve.
const MaxDistPoints = 64

// MaxLineTime bounds a distribution curve's time per line of keys: far
// above a line's fill from memory on any machine (some 100 ns), far
// below what makes a prediction overflow.
const MaxLineTime = 1e-5

// ValidateDistribution checks a distribution curve: at most MaxDistPoints
// points, sizes from 1 KiB to 1 TiB in increasing order, times positive
// and up to 10 µs a line, walks from 0 to 10 µs a read, puts from 0 to
// 10 µs a line and at every point or none. Errors name the
// point and field, as distribution[2].scatter.
func ValidateDistribution(ps []DistPoint) Errors {
	var es Errors
	add := es.Add
	if !curveCount(&es, "distribution", "distribution curve", "sizes in and beyond the caches", len(ps), MaxDistPoints) {
		return es
	}
	for i, p := range ps {
		at := func(field string) string { return fieldAt("distribution", i, field) }
		switch {
		case p.Size < 1<<10 || p.Size > MaxCache:
			add(at("size"), "a point's size must be from 1 KiB to 1 TiB; got %d B", p.Size)
		case i > 0 && p.Size <= ps[i-1].Size:
			add(at("size"), "the points' sizes must increase: %s follows %s", units.FormatSize(p.Size), units.FormatSize(ps[i-1].Size))
		}
		checkLoopTimes(&es, at, "30 ns", p.Count, p.Scatter)
		if math.IsNaN(p.Walk) || p.Walk < 0 || p.Walk > MaxLineTime {
			add(at("walk"), "a page walk's time per read must be from 0 to 10 µs (e.g. 7 ns), 0 when not measured; got %s", fmtTime(p.Walk))
		}
		if math.IsNaN(p.Put) || p.Put < 0 || p.Put > MaxLineTime {
			add(at("put"), "the simple sorts' scatter time per line of keys must be from 0 to 10 µs (e.g. 40 ns), 0 when not measured; got %s", fmtTime(p.Put))
		}
	}
	if slices.ContainsFunc(ps, func(p DistPoint) bool { return p.Put > 0 }) && slices.ContainsFunc(ps, func(p DistPoint) bool { return p.Put == 0 }) {
		add("distribution", "the simple sorts' scatter (put) is measured at every point of the curve or at none; some points have it and some do not")
	}
	return es
}

// checkLoopTimes adds to es an error for each of a curve point's count
// and scatter times that is not above 0 and up to MaxLineTime, named by
// at ("count", "scatter"); eg is an example time for the message.
func checkLoopTimes(es *Errors, at func(string) string, eg string, count, scatter float64) {
	for _, t := range []struct {
		name string
		v    float64
	}{{"count", count}, {"scatter", scatter}} {
		if math.IsNaN(t.v) || t.v <= 0 || t.v > MaxLineTime {
			es.Add(at(t.name), "time per line of keys must be above 0 and up to 10 µs (e.g. %s); got %s", eg, fmtTime(t.v))
		}
	}
}

// DistributionAt is the count and scatter loops' seconds per line of
// keys for arrays of size bytes: the curve read between its points
// linearly in log size, and held at its ends beyond them. ok is false
// when the machine has no curve.
func (m Machine) DistributionAt(size float64) (count, scatter float64, ok bool) {
	if len(m.Distribution) < 2 {
		return 0, 0, false
	}
	lo, hi, f := bracket(m.Distribution, size)
	return lo.Count + f*(hi.Count-lo.Count), lo.Scatter + f*(hi.Scatter-lo.Scatter), true
}

// PutKeys is the share of a point's Size that its put loop moves in
// keys: the keys go into 64 buckets whose capacity is 5/4 of them, so
// that keys and buckets together span 9/10 of the two arrays the other
// loops use (measure's putAt). A simple sort's pass over keys of k bytes
// fills buckets of 5/4 k bytes (measure's bucketSet) and so spans what
// the put loop spans at the point of size k/PutKeys.
const PutKeys = 0.8

// PutAt is the simple distribution sorts' scatter loop's seconds per
// line of keys when it moves keys bytes of keys into their buckets
// (DistPoint.Put), read off the curve as DistributionAt reads it, at the
// size keys/PutKeys whose put loop moved that many. Read at keys instead,
// a pass would take the time of a loop over a fifth less memory: at 2^22
// keys, on the edge of a cache of some 20 MiB, one calibration timed the
// put at 16 MiB at 27 ns a line and the next at 51, where the 20 MiB the
// pass's buckets reach gave 45 and 57. ok is false when the curve has no
// such loop measured.
func (m Machine) PutAt(keys float64) (put float64, ok bool) {
	ps := m.Distribution
	if len(ps) < 2 || slices.ContainsFunc(ps, func(p DistPoint) bool { return p.Put <= 0 }) {
		return 0, false
	}
	lo, hi, f := bracket(ps, keys/PutKeys)
	return lo.Put + f*(hi.Put-lo.Put), true
}

// WalkAt is the seconds address translation adds to each read of a cycle
// of lines one to a page across span bytes (DistPoint.Walk), read off
// the curve as DistributionAt reads it; 0 when the curve has no walks.
func (m Machine) WalkAt(span float64) float64 {
	ps := m.Distribution
	if len(ps) < 2 || !slices.ContainsFunc(ps, func(p DistPoint) bool { return p.Walk > 0 }) {
		return 0
	}
	lo, hi, f := bracket(ps, span)
	return lo.Walk + f*(hi.Walk-lo.Walk)
}

// bracket is the two points of the curve ps (two or more) around size
// and how far between them size lies, linearly in log size; beyond the
// ends both are the end point.
func bracket(ps []DistPoint, size float64) (lo, hi DistPoint, f float64) {
	return logBracket(ps, size, func(p DistPoint) int64 { return p.Size })
}

// logBracket is bracket for any curve whose points increase in at.
func logBracket[P any](ps []P, x float64, at func(P) int64) (lo, hi P, f float64) {
	if x <= float64(at(ps[0])) {
		return ps[0], ps[0], 0
	}
	last := ps[len(ps)-1]
	if x >= float64(at(last)) {
		return last, last, 0
	}
	j := sort.Search(len(ps), func(i int) bool { return float64(at(ps[i])) >= x })
	lo, hi = ps[j-1], ps[j]
	return lo, hi, math.Log(x/float64(at(lo))) / math.Log(float64(at(hi))/float64(at(lo)))
}

// WalkKnee is the page walk, in seconds a read, that WalkReach reads the
// translation buffer's reach at: past it a read waits longer for its
// translation than a cached read takes (some 0.4 to 1 ns).
const WalkKnee = 1e-9

// WalkReach is the span, in bytes of one-line-a-page reads, at which the
// curve's page walk first reaches WalkKnee (read between points as
// WalkAt reads them): about the translation buffer's entries times the
// page. 0 when the curve has no walks or never reaches it.
func (m Machine) WalkReach() float64 {
	ps := m.Distribution
	for i, p := range ps {
		if p.Walk < WalkKnee {
			continue
		}
		if i == 0 {
			return float64(p.Size)
		}
		lo := ps[i-1]
		f := (WalkKnee - lo.Walk) / (p.Walk - lo.Walk)
		return float64(lo.Size) * math.Pow(float64(p.Size)/float64(lo.Size), f)
	}
	return 0
}
