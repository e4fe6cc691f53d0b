package measure

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Diff is one parameter of two calibrations side by side.
type Diff struct {
	Param string  `json:"param"` // as in a machine file's spread: beta1, levels[1].beta2, core_rates.perm
	A     float64 `json:"a"`
	B     float64 `json:"b"`
	// Rel is |B − A| / A (+Inf when only one of them has the parameter).
	Rel float64 `json:"rel"`
	// SpreadA and SpreadB are the parameter's spread over the rounds of
	// each calibration (the machine file's spread; 0 when it has none).
	SpreadA float64 `json:"spread_a,omitempty"`
	SpreadB float64 `json:"spread_b,omitempty"`
	// OnStep marks a point of the memory latency or gather curve whose
	// span lies within StepBand of either calibration's last cache: on
	// the curve's climb from the cache to memory, where the time at a
	// fixed span follows the share of the cache the machine gets. That
	// share is compared once, as cache (and dependent_reach); on a
	// guest whose last cache other tenants share, a point there moves
	// by up to twice between calibrations whose caches agree within 3 %.
	OnStep bool `json:"on_step,omitempty"`
}

// StepBand is how far from a last cache of C bytes, in either
// direction, a curve's span lies on the cache's step (OnStep): the
// latency curve of the Zen 5 guest of docs/hierarchy.md climbed from
// 25 ns at 0.8·C to 146 ns at 1.6·C and went on at memory's slope from
// 2·C.
const StepBand = 1.5

// WithinSpread reports whether the two values differ by no more than the
// larger of their calibrations' own spreads: a change the parameter's
// rounds already showed within one calibration.
func (d Diff) WithinSpread() bool {
	return !math.IsInf(d.Rel, 0) && d.Rel <= math.Max(d.SpreadA, d.SpreadB)
}

// AgreeWithin is the agreement two calibrations in a row should reach on
// every parameter.
const AgreeWithin = 0.10

// Params flattens the numbers a calibration measures, named the way a
// machine file's spread names them: the paper's five (mu1 is not
// measured), then per level its size, β1, β2 and latency, memory's
// latency and its curve at the powers of two it spans, the compute rate,
// each kernel's core rate and the distribution curve's memory end. The last level's
// size is the machine's cache by the machine's own rule (machine.WithLevels)
// and is listed once, as cache: a calibration pair would otherwise count
// one difference twice.
func Params(m machine.Machine) map[string]float64 {
	p := map[string]float64{
		"beta1": m.Beta1, "beta2": m.Beta2, "cache": float64(m.C), "line": float64(m.B), "mispredict": m.M,
	}
	for i, l := range m.Levels {
		k := fmt.Sprintf("levels[%d].", i)
		if i < len(m.Levels)-1 || l.Size != m.C {
			p[k+"size"] = float64(l.Size)
		}
		p[k+"beta1"] = l.Beta1
		p[k+"beta2"] = l.Beta2
		if l.Latency > 0 {
			p[k+"latency"] = l.Latency
		}
	}
	if m.MemLatency > 0 {
		p["mem_latency"] = m.MemLatency
	}
	if m.ComputeRate > 0 {
		p["compute_rate"] = m.ComputeRate
	}
	// The memory latency curve at the powers of two it spans from the
	// last level's size: its points follow each calibration's cache, and
	// a span read between them compares the same memory. Below the level
	// the curve says how far a chase finds it, and that reach is what
	// the model reads there (machine.Machine.DependentReach), so it is
	// compared in place of those points.
	if n := len(m.MemLatencyCurve); n >= 2 {
		from := m.MemLatencyCurve[0].Span
		if k := len(m.Levels); k > 0 {
			from = max(from, m.Levels[k-1].Size)
		}
		for s := int64(1) << 20; s <= m.MemLatencyCurve[n-1].Span; s *= 2 {
			if s >= from {
				p[LatencyCurveParam(s)] = m.MemLatencyAt(float64(s))
			}
		}
		if m.CurveBelowCache() {
			p["dependent_reach"] = m.DependentReach()
		}
	}
	// The gather curve at the powers of two it spans: its points follow
	// each calibration's cache, as the latency curve's do.
	if n := len(m.GatherCurve); n >= 2 {
		for sp := int64(1) << 20; sp <= m.GatherCurve[n-1].Span; sp *= 2 {
			if v, ok := m.GatherAt(float64(sp)); ok {
				p[gatherCurvePrefix+units.FormatSize(sp)+"]"] = v
			}
		}
	}
	for k, v := range m.CoreRates {
		p["core_rates."+k] = v
	}
	// The distribution curve by its last point, memory's: its sizes
	// follow each calibration's cache, and the points inside the caches
	// are the loops' work, which the core rates already compare.
	if n := len(m.Distribution); n > 0 {
		p["distribution.count"] = m.Distribution[n-1].Count
		p["distribution.scatter"] = m.Distribution[n-1].Scatter
		if w := m.Distribution[n-1].Walk; w > 0 {
			p["distribution.walk"] = w
		}
		if v := m.Distribution[n-1].Put; v > 0 {
			p["distribution.put"] = v
		}
	}
	// The few-bucket curve by its fewest buckets, the longest chain.
	if len(m.FewBuckets) > 0 {
		f := m.FewBuckets[0]
		p["few_buckets.count"], p["few_buckets.scatter"] = f.Count, f.Scatter
		if f.Put > 0 {
			p["few_buckets.put"] = f.Put
		}
	}
	if m.Streams > 0 {
		p["streams"] = float64(m.Streams)
	}
	// The stream curve by its two ends: its points apart would compare
	// times a few percent apart in a band whose edges move with them.
	if len(m.StreamCost) > 0 {
		fast, slow := m.StreamEnds()
		p["stream_cost.fastest"], p["stream_cost.slowest"] = fast.Scatter, slow.Scatter
	}
	if m.L1Fill > 0 {
		p["l1_fill"], p["l1_exposed"] = m.L1Fill, m.L1Exposed
	}
	if m.WalkInFlight > 0 {
		p["walk_in_flight"] = m.WalkInFlight
	}
	if m.CrowdedRead > 0 {
		p["crowded_read"] = m.CrowdedRead
	}
	// The column curve by each place count's median point: a point at
	// the edge of a level moves with the level's share by more than the
	// loop's cost does.
	for g := range machine.ColumnGroups(m.ColumnCurve) {
		reads := make([]float64, len(g))
		for i, pt := range g {
			reads[i] = pt.Read
		}
		p[fmt.Sprintf("%s[%d places]", columnCurveKey, g[0].Places)] = Summarize(reads).Median
	}
	return p
}

// columnCurveKey is the column curve's key in Spread and in comparisons.
const columnCurveKey = "column_curve"

// curveSpread is m's spread of the parameter named n: for a point of the
// memory latency curve its own, when the calibration recorded it
// (curveSpreads), else memory's latency's, the same chase's rounds; for
// a place count of the column curve, or a span of the gather curve, the
// curve's.
func curveSpread(m machine.Machine, n string) float64 {
	if strings.HasPrefix(n, columnCurveKey+"[") {
		return m.Spread[columnCurveKey]
	}
	if strings.HasPrefix(n, gatherCurvePrefix) {
		return m.Spread["gather_curve"]
	}
	if v, ok := m.Spread[n]; ok || !strings.HasPrefix(n, latencyCurvePrefix) {
		return v
	}
	return m.Spread["mem_latency"]
}

// LatencyCurveParam names the memory latency curve at span bytes in
// Params, as mem_latency_curve[1 GiB].
func LatencyCurveParam(span int64) string {
	return latencyCurvePrefix + units.FormatSize(span) + "]"
}

const latencyCurvePrefix = "mem_latency_curve["

// gatherCurvePrefix names the gather curve at a span in Params, as
// gather_curve[64 MiB].
const gatherCurvePrefix = "gather_curve["

// Compare lists every parameter either machine has, in a stable order
// (the paper's first, then levels, then the rest by name), with its
// relative difference.
func Compare(a, b machine.Machine) []Diff {
	pa, pb := Params(a), Params(b)
	var names []string
	for k := range pa {
		names = append(names, k)
	}
	for k := range pb {
		if _, ok := pa[k]; !ok {
			names = append(names, k)
		}
	}
	order := map[string]int{"beta1": 0, "beta2": 1, "cache": 2, "line": 3, "mispredict": 4}
	rank := func(s string) int {
		if r, ok := order[s]; ok {
			return r
		}
		if len(s) > 7 && s[:7] == "levels[" {
			return 5
		}
		return 6
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	out := make([]Diff, 0, len(names))
	for _, n := range names {
		va, oka := pa[n]
		vb, okb := pb[n]
		if strings.HasPrefix(n, latencyCurvePrefix) && oka != okb {
			// A span only one curve reaches: their caches differ,
			// which cache compares.
			continue
		}
		d := Diff{Param: n, A: va, B: vb, Rel: math.Inf(1), SpreadA: curveSpread(a, n), SpreadB: curveSpread(b, n),
			OnStep: onStep(n, a.C) || onStep(n, b.C)}
		switch {
		case oka && okb && va == vb:
			d.Rel = 0
		case oka && okb && va != 0:
			d.Rel = math.Abs(vb-va) / math.Abs(va)
		}
		out = append(out, d)
	}
	return out
}

// onStep reports whether the parameter named n is a point of the memory
// latency or gather curve at a span within StepBand of a last cache of c
// bytes (Diff.OnStep).
func onStep(n string, c int64) bool {
	var rest string
	switch {
	case strings.HasPrefix(n, latencyCurvePrefix):
		rest = n[len(latencyCurvePrefix):]
	case strings.HasPrefix(n, gatherCurvePrefix):
		rest = n[len(gatherCurvePrefix):]
	default:
		return false
	}
	span, err := units.ParseSize(strings.TrimSuffix(rest, "]"))
	if err != nil || span <= 0 || c <= 0 {
		return false
	}
	r := float64(span) / float64(c)
	return r >= 1/StepBand && r <= StepBand
}
