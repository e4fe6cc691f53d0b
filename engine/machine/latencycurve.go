package machine

import (
	"fmt"
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
	var es Errors
	add := es.Add
	if !curveCount(&es, "mem_latency_curve", "memory latency curve", "spans past the last cache", len(ps), MaxLatencyPoints) {
		return es
	}
	for i, p := range ps {
		at := fmt.Sprintf("mem_latency_curve[%d]", i)
		switch {
		case p.Span < 1<<10 || p.Span > MaxCache:
			add(at+".span", "a point's span must be from 1 KiB to 1 TiB; got %d B", p.Span)
		case i > 0 && p.Span <= ps[i-1].Span:
			add(at+".span", "the points' spans must increase: %s follows %s", units.FormatSize(p.Span), units.FormatSize(ps[i-1].Span))
		}
		if math.IsNaN(p.Latency) || p.Latency <= 0 || p.Latency > MaxMemLatency {
			add(at+".latency", "a dependent read's latency must be above 0 and up to 10 µs (e.g. 150 ns); got %s", fmtTime(p.Latency))
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
