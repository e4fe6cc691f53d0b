package machine

import (
	"math"

	"memwall/engine/units"
)

// LatencyPoint is one point of a machine's memory latency curve: the
// load-to-use latency of a dependent read (a pointer chase) that goes
// round a random cycle of lines spanning Span bytes, in seconds.
//
// Past the last cache a chase does not settle at one latency: every read
// also waits for its address's translation, and the page tables of a
// larger span fall out of the translation caches and then out of the
// data caches themselves (a virtual machine walks two sets of tables).
// Measured on the development guest, a chase took 153 ns at 128 MiB,
// 172 at 256 MiB, 188 at 512 MiB, 222 at 1 GiB and 343 at 2 GiB, with
// no step at the last cache's size (docs/hierarchy.md). One number read
// at 8·C charged a heap of 512 MiB the latency of 2 GiB, and moved by a
// third between calibrations as the last cache's size did.
type LatencyPoint struct {
	Span    int64   `json:"span"`
	Latency float64 `json:"latency"`
}

// MaxLatencyPoints bounds the points of a memory latency curve.
const MaxLatencyPoints = 64

// ValidateLatencyCurve checks a memory latency curve: none, or two to
// MaxLatencyPoints points, spans from 1 KiB to 1 TiB in increasing order,
// latencies above 0 and up to 10 µs. Errors name the point and field, as
// mem_latency_curve[1].latency.
func ValidateLatencyCurve(ps []LatencyPoint) Errors {
	return validateSpanCurve(spanCurve{key: "mem_latency_curve", noun: "memory latency curve", max: MaxLatencyPoints,
		field: "latency", limit: MaxMemLatency, what: "a dependent read's latency must be above 0 and up to 10 µs (e.g. 150 ns)"},
		ps, func(p LatencyPoint) (int64, float64) { return p.Span, p.Latency })
}

// spanCurve names a curve of times by span for validateSpanCurve: its
// key and noun, its most points, its time's field, the time's limit and
// what a bad time's message says it must be.
type spanCurve struct {
	key, noun string
	max       int
	field     string
	limit     float64
	what      string
}

// validateSpanCurve checks a curve of times by span (the memory latency
// curve, the gather curve): none, or two to c.max points, spans from
// 1 KiB to 1 TiB in increasing order, times above 0 and up to c.limit.
// Errors name the point and field, as gather_curve[1].read.
func validateSpanCurve[P any](c spanCurve, ps []P, at func(P) (span int64, secs float64)) Errors {
	var es Errors
	add := es.Add
	if !curveCount(&es, c.key, c.noun, "spans past the last cache", len(ps), c.max) {
		return es
	}
	var last int64
	for i, p := range ps {
		span, v := at(p)
		name := func(field string) string { return fieldAt(c.key, i, field) }
		switch {
		case span < 1<<10 || span > MaxCache:
			add(name("span"), "a point's span must be from 1 KiB to 1 TiB; got %d B", span)
		case i > 0 && span <= last:
			add(name("span"), "the points' spans must increase: %s follows %s", units.FormatSize(span), units.FormatSize(last))
		}
		last = span
		if math.IsNaN(v) || v <= 0 || v > c.limit {
			add(name(c.field), "%s; got %s", c.what, fmtTime(v))
		}
	}
	return es
}

// MemLatencyAt is memory's latency for a dependent read when the reads
// span span bytes: the latency curve read between its points linearly
// in log span and held at its ends beyond them, or MemLatency when the
// machine has no curve.
func (m Machine) MemLatencyAt(span float64) float64 {
	ps := m.MemLatencyCurve
	if len(ps) < 2 || math.IsNaN(span) {
		return m.MemLatency
	}
	lo, hi, f := logBracket(ps, span, func(p LatencyPoint) int64 { return p.Span })
	return lo.Latency + f*(hi.Latency-lo.Latency)
}

// DependentReach is how much of the last cache level a chain of
// dependent reads finds: the span at which the latency curve, below the
// level's size, has risen halfway from the level's latency to memory's
// (the curve at twice the level's size), read between its points in log
// span as MemLatencyAt reads them; the first point's span when that one
// is already past halfway; the level's size when the curve shows no such
// rise below it, or the machine has no levels or no curve there (a curve
// from an earlier calibration starts at the last cache).
//
// A last cache that other cores or tenants fill too keeps less of a
// chase than of a scan: on the development guest (docs/hierarchy.md) the
// throughput curve read the share at 11.7 MiB, but a chase went from
// 21 ns at 5.7 MiB to 127 ns at 6.7 MiB, and heapsort with heaps of 12
// and 16 MiB ran at 1.5 times an estimate that cached its walks' top
// depths up to the share.
func (m Machine) DependentReach() float64 {
	if len(m.Levels) == 0 {
		return 0
	}
	last := m.Levels[len(m.Levels)-1]
	size := float64(last.Size)
	if !m.CurveBelowCache() {
		return size
	}
	ps := m.MemLatencyCurve
	lo := last.Latency
	if !(lo > 0) {
		lo = ps[0].Latency
	}
	mid := (lo + m.MemLatencyAt(2*size)) / 2
	if !(mid > lo) {
		return size
	}
	for i, p := range ps {
		if p.Latency < mid {
			if float64(p.Span) >= size {
				return size
			}
			continue
		}
		if i == 0 {
			return math.Min(size, float64(p.Span))
		}
		q := ps[i-1]
		f := (mid - q.Latency) / (p.Latency - q.Latency)
		return math.Min(size, float64(q.Span)*math.Pow(float64(p.Span)/float64(q.Span), f))
	}
	return size
}

// CurveBelowCache says m's latency curve (two points or more) starts
// below its last level's size, so that DependentReach reads the level's
// reach off it.
func (m Machine) CurveBelowCache() bool {
	n := len(m.Levels)
	return n > 0 && len(m.MemLatencyCurve) >= 2 && m.MemLatencyCurve[0].Span < m.Levels[n-1].Size
}
