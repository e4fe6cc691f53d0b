package measure

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"memwall/engine/machine"
)

// ParamGroup names the parameters that WithParamOf takes together with
// the one named param (as Params names them): the points of one curve
// (the memory latency curve with the reach it gives, the gather, column,
// distribution and few-bucket curves), the stream test's count with its
// costs, the first level's fill with its exposed share, and a level's two
// fill bandwidths, which a level needs in order (β2 ≤ β1: calibration
// sets β2 to β1 where the random step came out the cheaper, as it does
// for the first level); every other parameter is its own group.
func ParamGroup(param string) string {
	var lvl int
	var field string
	if n, _ := fmt.Sscanf(param, "levels[%d].%s", &lvl, &field); n == 2 && (field == "beta1" || field == "beta2") {
		return fmt.Sprintf("levels[%d].%s", lvl, levelBetas)
	}
	switch {
	case strings.HasPrefix(param, latencyCurvePrefix), param == "dependent_reach":
		return "mem_latency_curve"
	case strings.HasPrefix(param, gatherCurvePrefix):
		return "gather_curve"
	case strings.HasPrefix(param, columnCurveKey+"["):
		return columnCurveKey
	case strings.HasPrefix(param, "distribution."):
		return "distribution"
	case strings.HasPrefix(param, "few_buckets."):
		return "few_buckets"
	case param == "streams", strings.HasPrefix(param, "stream_cost."):
		return "streams"
	case param == "l1_fill", param == "l1_exposed":
		return "l1_fill"
	}
	return param
}

// levelBetas names a level's two fill bandwidths as one group.
const levelBetas = "beta1+beta2"

// WithParamOf is a with the parameters of group (ParamGroup) as b has
// them, everything else as it was: what one calibration's change alone
// does to what the model says. It fails where the group is not one of
// Params' or b lacks it in the same place (a level b does not have).
// The last level's size and the machine's C are one parameter, cache,
// and move together. The result shares no map with a or b; whether it
// is a valid machine is the caller's to check.
func WithParamOf(a, b machine.Machine, group string) (machine.Machine, error) {
	m := a
	m.Levels = slices.Clone(a.Levels)
	m.CoreRates = maps.Clone(a.CoreRates)
	var lvl int
	var field string
	if n, _ := fmt.Sscanf(group, "levels[%d].%s", &lvl, &field); n == 2 {
		if lvl < 0 || lvl >= len(a.Levels) || lvl >= len(b.Levels) {
			return a, fmt.Errorf("%s: both machines need a level %d", group, lvl+1)
		}
		from, to := b.Levels[lvl], &m.Levels[lvl]
		switch field {
		case "size":
			to.Size = from.Size
		case levelBetas:
			to.Beta1, to.Beta2 = from.Beta1, from.Beta2
		case "latency":
			to.Latency = from.Latency
		default:
			return a, fmt.Errorf("%s: a level's groups are size, %s and latency", group, levelBetas)
		}
		return m, nil
	}
	if rate, ok := strings.CutPrefix(group, "core_rates."); ok {
		v, has := b.CoreRates[rate]
		if !has {
			return a, fmt.Errorf("%s: the second machine has no core rate for %s", group, rate)
		}
		if m.CoreRates == nil {
			m.CoreRates = map[string]float64{}
		}
		m.CoreRates[rate] = v
		return m, nil
	}
	switch group {
	case "beta1":
		m.Beta1 = b.Beta1
	case "beta2":
		m.Beta2 = b.Beta2
	case "line":
		// Calibration reads one line for every level.
		m.B = b.B
		for i := range m.Levels {
			m.Levels[i].Line = b.B
		}
	case "mispredict":
		m.M = b.M
	case "cache":
		m.C = b.C
		if len(m.Levels) > 0 {
			m.Levels[len(m.Levels)-1].Size = b.C
		}
	case "mem_latency":
		m.MemLatency = b.MemLatency
	case "compute_rate":
		m.ComputeRate = b.ComputeRate
	case "mem_latency_curve":
		m.MemLatencyCurve = b.MemLatencyCurve
	case "gather_curve":
		m.GatherCurve = b.GatherCurve
	case columnCurveKey:
		m.ColumnCurve = b.ColumnCurve
	case "distribution":
		m.Distribution = b.Distribution
	case "few_buckets":
		m.FewBuckets = b.FewBuckets
	case "streams":
		m.Streams, m.StreamCost = b.Streams, b.StreamCost
	case "l1_fill":
		m.L1Fill, m.L1Exposed = b.L1Fill, b.L1Exposed
	case "walk_in_flight":
		m.WalkInFlight = b.WalkInFlight
	case "crowded_read":
		m.CrowdedRead = b.CrowdedRead
	default:
		return a, fmt.Errorf("%s: not a parameter of a calibration", group)
	}
	return m, nil
}
