package machine

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Scaled returns a copy of m with the parameter named key multiplied by f,
// and whether m has that parameter. Keys are those of Spread, which a
// calibration writes beside each number it measures: beta1, beta2,
// cache, mispredict, levels[i].size, levels[i].beta1, levels[i].beta2,
// levels[i].latency, mem_latency (and the memory latency curve with it),
// compute_rate, l1_fill, l1_exposed (at most 1), core_rates.KERNEL and
// distribution.count, .scatter, .put and .walk, few_buckets.count, .scatter and .put. A calibration also
// writes the spread of each point of the memory latency curve at a power
// of two (mem_latency_curve[16 MiB]) for comparing calibrations; Scaled
// does not move those, memory's latency's spread standing for the curve;
// of the stream curve's two ends (stream_cost.fastest, .slowest),
// recorded for the same comparison, the slowest's spread moves the whole
// curve (below), the fastest's nothing; nor does Scaled move a chase's
// reach (dependent_reach, DependentReach), read off the curve's points
// below the last cache and recorded for comparing calibrations too.
//
// It is how a prediction learns what the calibration's spreads mean for
// it (engine/hier's Sensitivity): each parameter moved by its own spread,
// the rest held. The copy shares nothing with m that it changes.
//
//   - cache is the last level's size too, as WithLevels makes it.
//   - A size stays a whole number of lines; one that would then break the
//     hierarchy's order (ValidateLevels) is reported as not there.
//   - stream_cost.slowest scales every point of the stream curve, and so
//     its excess over its fastest point, which is what the model charges:
//     the points' spreads are alike (0.8 to 2.8 % on the AMD guest).
//   - few_buckets.X scales X (count, scatter, put) at every point of
//     the few-bucket curve, by the spread of the fewest buckets' X.
//   - column_curve and gather_curve scale every point of their curve: a
//     calibration records the median of its points' spreads.
//   - distribution.X scales X at every point of the curve. A calibration
//     records the curve's spread at its memory end only (the points past
//     twice the last cache, pooled), and that share stands for the whole
//     curve: the counting sorts take all their passes' time from it, in
//     the caches too, and no core rate's spread covers them there.
func (m Machine) Scaled(key string, f float64) (Machine, bool) {
	if !(f > 0) || math.IsInf(f, 0) {
		return m, false
	}
	out := m
	out.Levels = slices.Clone(m.Levels)
	out.Distribution = slices.Clone(m.Distribution)
	out.FewBuckets = slices.Clone(m.FewBuckets)
	out.CoreRates = maps.Clone(m.CoreRates)
	scale := func(v *float64) bool {
		if *v <= 0 {
			return false
		}
		*v *= f
		return true
	}
	switch key {
	case "beta1":
		return out, scale(&out.Beta1)
	case "beta2":
		return out, scale(&out.Beta2)
	case "mispredict":
		return out, scale(&out.M)
	case "stream_cost.slowest":
		var ok bool
		out.StreamCost, ok = scaledPoints(m.StreamCost, f, func(p *StreamPoint) *float64 { return &p.Scatter })
		return out, ok
	case "mem_latency":
		// The curve, when given, is what the model reads memory's
		// latency from; the calibration's spread of the one number
		// stands for it (the rounds of the same chase).
		var curve bool
		out.MemLatencyCurve, curve = scaledPoints(m.MemLatencyCurve, f, func(p *LatencyPoint) *float64 { return &p.Latency })
		return out, scale(&out.MemLatency) || curve
	case "compute_rate":
		return out, scale(&out.ComputeRate)
	case "l1_fill":
		return out, scale(&out.L1Fill)
	case "crowded_read":
		return out, scale(&out.CrowdedRead)
	case "column_curve":
		// One spread, the points' median, stands for the whole curve.
		var ok bool
		out.ColumnCurve, ok = scaledPoints(m.ColumnCurve, f, func(p *ColumnPoint) *float64 { return &p.Read })
		return out, ok
	case "gather_curve":
		// One spread, the points' median, stands for the whole curve.
		var ok bool
		out.GatherCurve, ok = scaledPoints(m.GatherCurve, f, func(p *GatherPoint) *float64 { return &p.Read })
		return out, ok
	case "l1_exposed":
		// A share: at most 1, where the fills wait for the work.
		ok := scale(&out.L1Exposed)
		out.L1Exposed = math.Min(out.L1Exposed, 1)
		return out, ok
	case "cache":
		c := scaledSize(m.C, m.B, f)
		if c <= 0 {
			return m, false
		}
		out.C = c
		if n := len(out.Levels); n > 0 && m.Levels[n-1].Size == m.C {
			out.Levels[n-1].Size = scaledSize(m.Levels[n-1].Size, m.Levels[n-1].Line, f)
			if len(ValidateLevels(out.Levels)) > 0 {
				return m, false
			}
		}
		return out, true
	}
	if k, ok := strings.CutPrefix(key, "core_rates."); ok {
		v, has := out.CoreRates[k]
		if !has || !scale(&v) {
			return m, false
		}
		out.CoreRates[k] = v
		return out, true
	}
	if k, ok := strings.CutPrefix(key, "distribution."); ok {
		return out.scaledCurve(k, f)
	}
	if k, ok := strings.CutPrefix(key, "few_buckets."); ok {
		return out.scaledFew(k, f)
	}
	var i int
	var field string
	if n, err := fmt.Sscanf(key, "levels[%d].%s", &i, &field); err != nil || n != 2 || i < 0 || i >= len(out.Levels) {
		return m, false
	}
	l := &out.Levels[i]
	switch field {
	case "size":
		if l.Size = scaledSize(l.Size, l.Line, f); l.Size <= 0 || len(ValidateLevels(out.Levels)) > 0 {
			return m, false
		}
		if i == len(out.Levels)-1 && m.Levels[i].Size == m.C {
			out.C = l.Size
		}
		return out, true
	case "beta1":
		return out, scale(&l.Beta1)
	case "beta2":
		return out, scale(&l.Beta2)
	case "latency":
		return out, scale(&l.Latency)
	}
	return m, false
}

// scaledCurve scales the loop named k at every point of the distribution
// curve (Scaled).
func (m Machine) scaledCurve(k string, f float64) (Machine, bool) {
	var loop func(p *DistPoint) *float64
	switch k {
	case "count":
		loop = func(p *DistPoint) *float64 { return &p.Count }
	case "scatter":
		loop = func(p *DistPoint) *float64 { return &p.Scatter }
	case "put":
		loop = func(p *DistPoint) *float64 { return &p.Put }
	case "walk":
		loop = func(p *DistPoint) *float64 { return &p.Walk }
	default:
		return m, false
	}
	return m, scaleGiven(m.Distribution, f, loop)
}

// scaledFew scales the loop named k at every point of the few-bucket
// curve (Scaled, which gives it a copy of the curve).
func (m Machine) scaledFew(k string, f float64) (Machine, bool) {
	var loop func(p *FewPoint) *float64
	switch k {
	case "count":
		loop = func(p *FewPoint) *float64 { return &p.Count }
	case "scatter":
		loop = func(p *FewPoint) *float64 { return &p.Scatter }
	case "put":
		loop = func(p *FewPoint) *float64 { return &p.Put }
	default:
		return m, false
	}
	return m, scaleGiven(m.FewBuckets, f, loop)
}

// scaleGiven multiplies the value at(p) of each point p of ps by f where
// it is given (above 0) and says whether any was.
func scaleGiven[P any](ps []P, f float64, at func(*P) *float64) bool {
	found := false
	for i := range ps {
		if v := at(&ps[i]); *v > 0 {
			*v *= f
			found = true
		}
	}
	return found
}

// scaledSize is size times f in whole lines, at least one.
func scaledSize(size, line int64, f float64) int64 {
	if size <= 0 || line <= 0 {
		return 0
	}
	return max(1, int64(math.Round(float64(size)*f/float64(line)))) * line
}

// scaledPoints is a copy of a curve's points with each one's value (at)
// times f, and whether there were any; none gives ps back.
func scaledPoints[P any](ps []P, f float64, at func(*P) *float64) ([]P, bool) {
	if len(ps) == 0 {
		return ps, false
	}
	out := slices.Clone(ps)
	for i := range out {
		*at(&out[i]) *= f
	}
	return out, true
}
