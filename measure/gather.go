package measure

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Gather method: the random-read throughput curve's loop (randomRead)
// makes its addresses with four generators, and on the AMD Zen 4 guest it
// kept fewer reads in flight past the last cache than a loop that reads
// its addresses from an array, as the kernels do (the permutation
// product's X[Y[i]], a C program's gather): 9.6 against 7.3 ns a read
// over 64 MiB, 8.9 against 6.2 over 32 MiB, 10.7 against 8.6 over 256
// MiB (one generator: 12.7 over 64 MiB). The traditional permutation
// product beyond the cache ran at 0.79 to 0.87 of the estimate that
// priced its reads at the generators' rate (docs/hierarchy.md). So
// calibration also times the gather, s += a[idx[i]], at the last level's
// plateau and at memory's point (8·C), and takes memory's random fill
// of the last level (its β2) from the gather's step where that is the
// faster: β2 is the random lines a core fetches at once at most.

// GatherResult is the gather's seconds a read at the last level's plateau
// (Cache, over CacheSize bytes) and at memory's point (Mem, over MemSize
// bytes), each over the rounds.
type GatherResult struct {
	CacheSize int64 `json:"cache_size"`
	MemSize   int64 `json:"mem_size"`
	Cache     Stat  `json:"cache"`
	Mem       Stat  `json:"mem"`
	// Curve is the gather at spans from the last cache's size on
	// (gatherSpans), memory's point among them: the machine's gather
	// curve (setGatherCurve).
	Curve []GatherSpan `json:"curve,omitempty"`
}

// GatherSpan is the gather's seconds a read over Span bytes, over the
// rounds.
type GatherSpan struct {
	Span int64 `json:"span"`
	Read Stat  `json:"read"`
}

// gatherRead sums a at the indices idx, reps times over.
func gatherRead(a []uint64, idx []uint32, reps int) uint64 {
	var s0, s1 uint64
	for range reps {
		for i := 0; i+1 < len(idx); i += 2 {
			s0 += a[idx[i]]
			s1 += a[idx[i+1]]
		}
	}
	return s0 + s1
}

// fillIndices fills idx with indices uniform on [0, n), from seed: the
// random keys of fillKeys scaled to n.
func fillIndices(idx []uint32, n int, seed uint64) {
	fillKeys(idx, seed)
	for i, k := range idx {
		idx[i] = uint32(uint64(k) * uint64(n) >> 32)
	}
}

// gatherAt times reads of the first size bytes of buf at the indices
// idx (filled afresh from seed), reps times over, after one pass in order
// and an untimed run: seconds a read.
func gatherAt(buf []uint64, size int64, idx []uint32, reps int, seed uint64) float64 {
	n := max(1, min(int(size/8), len(buf)))
	a := buf[:n]
	fillIndices(idx, n, seed)
	sink += touchLines(a)
	sink += gatherRead(a, idx, 1)
	t0 := time.Now()
	sink += gatherRead(a, idx, reps)
	return time.Since(t0).Seconds() / float64(reps*len(idx))
}

// gatherRounds times the gather over the last level's plateau point p
// (bytes; a small index array read over and over, whose lines stay in
// the levels above) and over memory's point s and the curve's spans for
// a last cache of c bytes, from the first level's size from
// (gatherSpans; from c on one long index array streamed once, as a
// kernel's, below it gatherIndex's), rounds times each, reads reads a
// time, each round over every span.
func gatherRounds(ctx context.Context, buf []uint64, p, s, c, from int64, reads, rounds int) (GatherResult, error) {
	g, err := newGatherer(buf, p, s, c, from, reads)
	return takeRounds[GatherResult](ctx, rounds, g, err)
}

// gatherer is gatherRounds a round at a time (rounder).
type gatherer struct {
	buf         []uint64
	p, s, c     int64
	spans       []int64
	small, long []uint32
	reads       int
	cs          []float64
	times       [][]float64
}

func newGatherer(buf []uint64, p, s, c, from int64, reads int) (*gatherer, error) {
	if s > int64(len(buf))*8 || p <= 0 || p >= s {
		return nil, fmt.Errorf("random reads by index: no room for memory's point (%s) in a buffer of %s", units.FormatSize(s), units.FormatSize(int64(len(buf))*8))
	}
	spans := gatherSpans(c, s, int64(len(buf))*8, from)
	return &gatherer{buf: buf, p: p, s: s, c: c, spans: spans, small: make([]uint32, gatherSmallIndices),
		long: make([]uint32, reads), reads: reads, times: make([][]float64, len(spans))}, nil
}

func (g *gatherer) round(r int) {
	g.cs = append(g.cs, gatherAt(g.buf, g.p, g.small, max(1, g.reads/len(g.small)), uint64(2*r+1)))
	for i, sp := range g.spans {
		idx, reps := gatherIndex(g.long, sp, g.c)
		g.times[i] = append(g.times[i], gatherAt(g.buf, sp, idx, reps, uint64(2*r+2+1000*i)))
	}
}

func (g *gatherer) result() GatherResult {
	res := GatherResult{CacheSize: g.p, MemSize: g.s, Cache: Summarize(g.cs)}
	for i, sp := range g.spans {
		st := Summarize(g.times[i])
		if sp == g.s {
			res.Mem = st
		}
		res.Curve = append(res.Curve, GatherSpan{Span: sp, Read: st})
	}
	return res
}

// gatherSpans is the spans the gather curve is timed at for a last cache
// of c bytes: from itself (the first level's size; none below c when
// from is 0), then c/2^12 to c/2 by halves, those larger than from, then
// 1 to 2 times c by quarters, 4, 8, 16 and 32 times it, those that fit
// in buf bytes, and memory's point s among them (8·c where the levels
// give c).
//
// The curve starts at from itself, not at the first half of c past it:
// that half lies anywhere from from to twice it, as the ratio of the two
// sizes falls, and a product whose Y lay between from and that half was
// priced by the curve on one calibration and not on the next. Two
// calibrations of the Zen 5 guest a minute apart put the L3 share at
// 11.15 and 12.24 MiB and L1 at 48.25 and 47.19 KiB: the first curve
// began at 89 KiB, the second at 49 KiB, and the product of 16Ki
// elements (Y of 64 KiB) was estimated at 4.53 µs off the first and 5.07
// off the second, its reads' floor at 309.5 ps a read. The C loop of
// scripts/probes ran it in 5.1 to 5.7 µs.
//
// From the cache's size on: between it and twice it the levels' share
// C/span of hits, read with memory's fill at 8·c, put the permutation
// product at 0.54 to 0.65 of its estimate on the Zen 5 guest. Below it:
// the levels' random fill of L2 from L3 (B over the random-read curve's
// step) put the product at 0.71 to 0.80 of its estimate in eight of
// eleven runs there, as the step read 0.26 to 0.40 ns while the product
// held at 0.51 to 0.58 ns an element; its reads wait on the translation
// buffer as much as on L3 (a span of 2 MiB read from the zero page, all
// in L1, took as long as from memory's own pages), which the gather
// times with them. Between c and 2·c by quarters: with only c and 2·c
// the product with Y just past the cache ran at 0.76 of the line between
// them (Y of 16 MiB beside 14 MiB, p6), 0.86 on the quarters (p8).
func gatherSpans(c, s, buf, from int64) []int64 {
	spans := []int64{}
	if from > 0 && from < c && from <= buf && from != s {
		spans = append(spans, from)
	}
	for k := int64(1) << maxGatherHalvings; k >= 2; k /= 2 {
		if sp := c / k; from > 0 && sp > from && sp <= buf && sp != s {
			spans = append(spans, sp)
		}
	}
	for _, k := range []int64{4, 5, 6, 7, 8, 16, 32, 64, 128} {
		if sp := k * c / 4; sp > 0 && sp <= buf && sp != s {
			spans = append(spans, sp)
		}
	}
	spans = append(spans, s)
	slices.Sort(spans)
	return spans
}

// setGatherCurve sets m's gather curve from the gather's spans (each its
// fastest round, as memory's point is read) with the median of their
// spreads, and leaves it unset with fewer than two.
func setGatherCurve(m *machine.Machine, g GatherResult) {
	if len(g.Curve) < 2 {
		return
	}
	var ps []machine.GatherPoint
	var spreads []float64
	for _, c := range g.Curve {
		if !(c.Read.Min > 0) {
			return
		}
		ps = append(ps, machine.GatherPoint{Span: c.Span, Read: round3g(c.Read.Min)})
		spreads = append(spreads, c.Read.Spread)
	}
	m.GatherCurve = ps
	if m.Spread == nil {
		m.Spread = map[string]float64{}
	}
	m.Spread["gather_curve"] = round3(Summarize(spreads).Median)
	if m.Notes == nil {
		m.Notes = map[string]string{}
	}
	m.Notes["gather_curve"] = fmt.Sprintf("random reads by index (s += a[idx[i]]) over %d spans from %s to %s, each span's fastest round", len(ps), units.FormatSize(ps[0].Span), units.FormatSize(ps[len(ps)-1].Span))
}

// gatherSmallIndices is the index array at the plateau point: 256 KiB,
// which stays in the L2 beside the level's reads.
const gatherSmallIndices = 1 << 16

// setGatherBeta2 sets the last level's β2 of m from the gather, when its
// step is the faster: memory's time a read out of the last cache's hits,
// t = (t_s − t_p·C/s)/(1 − C/s), as the throughput curve's is read, less
// the plateau's, per line; each round's fastest time, as the curve's
// fastest round. It records the spread when it sets the field, and a note
// (GatherNote) either way; a machine without levels, or a gather without
// a step, it leaves as it is.
func setGatherBeta2(m *machine.Machine, g GatherResult) {
	n := len(m.Levels)
	if n == 0 || !(g.Mem.Min > 0) || !(g.Cache.Min > 0) {
		return
	}
	last := &m.Levels[n-1]
	c, s := float64(last.Size), float64(g.MemSize)
	if c >= s {
		return
	}
	b2 := func(tp, ts float64) float64 {
		step := (ts-tp*c/s)/(1-c/s) - tp
		if !(step > 0) {
			return 0
		}
		return float64(last.Line) / step
	}
	b := b2(g.Cache.Min, g.Mem.Min)
	if !(b > 0) {
		return
	}
	if m.Notes == nil {
		m.Notes = map[string]string{}
	}
	was := last.Beta2
	what := fmt.Sprintf("random reads by index over %s, %s a read, and over %s, %s: %s a line from memory", units.FormatSize(g.MemSize), units.FormatSeconds(g.Mem.Min), units.FormatSize(g.CacheSize), units.FormatSeconds(g.Cache.Min), units.FormatBandwidth(b))
	if !(b > was) {
		m.Notes[GatherNote] = what + fmt.Sprintf(", no faster than the throughput curve's %s, which %s keeps", units.FormatBandwidth(was), last.Name)
		return
	}
	var rounds []float64
	for i := range g.Mem.Samples {
		if i < len(g.Cache.Samples) {
			rounds = append(rounds, b2(g.Cache.Samples[i], g.Mem.Samples[i]))
		}
	}
	last.Beta2 = round3g(math.Min(b, last.Beta1))
	m.Spread[fmt.Sprintf("levels[%d].beta2", n-1)] = positiveSpread(rounds)
	m.Notes[GatherNote] = what + fmt.Sprintf(", %s's β2, where the throughput curve's generators read %s", last.Name, units.FormatBandwidth(was))
}

// GatherNote is the key of Machine.Notes that says what the gather read.
const GatherNote = "random_by_index"

// gatherFrom is the least span the gather curve is timed at below the
// last cache: the first level's size, or 0 (no span below the last
// cache) with one level. From L2's size (calibration p3) the product
// whose Y lies between L1's size and L2's, 64Ki to 192Ki elements on
// the Zen 5 guest, X, Y and Z together past L2, ran at 0.59 to 0.66 of
// the levels' estimate; on the curve from L1's size (p6) at 0.80 to
// 0.97, and every size from 16Ki to 2Mi elements in the band.
func gatherFrom(levels []machine.Level) int64 {
	if len(levels) < 2 {
		return 0
	}
	return levels[0].Size
}

// maxGatherHalvings is the most times the last cache is halved for the
// gather curve's spans below it (gatherSpans): 2^12 takes a cache of
// 128 MiB down to 32 KiB.
const maxGatherHalvings = 12

// gatherIndex is the index array and the runs over it that time the
// gather over span bytes below a last cache of c bytes: an array of
// span/4 indices (as many bytes as the span, as the permutation
// product's X is as long as its Y), run over as often as long's reads
// take, so that the index stream and the span stay in the cache as a
// kernel's arrays of that size do. From c on, long streamed once.
func gatherIndex(long []uint32, span, c int64) ([]uint32, int) {
	if span >= c || len(long) < 2 {
		return long, 1
	}
	idx := long[:max(2, min(int64(len(long)), span/4))&^1]
	return idx, max(1, len(long)/len(idx))
}
