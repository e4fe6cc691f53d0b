package measure

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/presets"
)

// perturbed is a with every parameter Params compares moved: what a
// second calibration of the same machine could read.
func perturbed(a machine.Machine) machine.Machine {
	b := a
	b.Beta1 *= 1.2
	b.Beta2 *= 1.3
	b.M *= 1.1
	b.Levels = slices.Clone(a.Levels)
	for i := range b.Levels {
		l := &b.Levels[i]
		l.Size = l.Size * 5 / 4 / l.Line * l.Line
		l.Beta1 *= 1.1
		l.Beta2 *= 1.1
		l.Latency *= 1.05
	}
	b.C = b.Levels[len(b.Levels)-1].Size
	b.MemLatency *= 1.2
	b.ComputeRate *= 0.9
	b.MemLatencyCurve = slices.Clone(a.MemLatencyCurve)
	for i := range b.MemLatencyCurve {
		b.MemLatencyCurve[i].Latency *= 1.2
	}
	b.GatherCurve = slices.Clone(a.GatherCurve)
	for i := range b.GatherCurve {
		b.GatherCurve[i].Read *= 1.2
	}
	b.ColumnCurve = slices.Clone(a.ColumnCurve)
	for i := range b.ColumnCurve {
		b.ColumnCurve[i].Read *= 1.1
	}
	b.Distribution = slices.Clone(a.Distribution)
	for i := range b.Distribution {
		d := &b.Distribution[i]
		d.Count, d.Scatter, d.Walk, d.Put = 1.1*d.Count, 1.1*d.Scatter, 1.1*d.Walk, 1.1*d.Put
	}
	b.FewBuckets = slices.Clone(a.FewBuckets)
	for i := range b.FewBuckets {
		f := &b.FewBuckets[i]
		f.Count, f.Scatter, f.Put = 1.1*f.Count, 1.1*f.Scatter, 1.1*f.Put
	}
	b.Streams -= 8
	b.StreamCost = slices.Clone(a.StreamCost)
	for i := range b.StreamCost {
		b.StreamCost[i].Scatter *= 1.1
	}
	b.L1Fill *= 1.1
	b.L1Exposed *= 0.9
	b.WalkInFlight *= 2
	b.CrowdedRead *= 1.5
	b.CoreRates = maps.Clone(a.CoreRates)
	for k := range b.CoreRates {
		b.CoreRates[k] *= 0.9
	}
	return b
}

// WithParamOf moves a parameter's group and nothing else: checked
// against Params, the comparison's own reading of a machine, on a
// measured machine and a copy with every parameter moved. The memory
// latency curve is compared from the last cache's size on, and the
// reach a chase finds is read off the curve and the last level
// together, so those keys follow the cache as well as the curve.
func TestWithParamOf(t *testing.T) {
	a, ok := presets.Machine("epyc-zen5-kvm-2vcpu")
	if !ok {
		t.Fatal("no preset epyc-zen5-kvm-2vcpu")
	}
	orig, _ := presets.Machine("epyc-zen5-kvm-2vcpu")
	b := perturbed(a)
	pa, pb := Params(a), Params(b)
	for k, v := range pb {
		if k != "line" && pa[k] == v {
			t.Fatalf("perturbed left %s at %g: the test would not see it move", k, v)
		}
	}
	// follows says whether key j may move with group g besides its own:
	// the latency curve's keys start at the last cache, and the reach is
	// where the curve passes halfway from the last level's latency.
	follows := func(j, g string) bool {
		_, inB := pb[j]
		switch {
		case j == "dependent_reach":
			return g == "cache" || g == "mem_latency_curve" || strings.HasPrefix(g, "levels[")
		case ParamGroup(j) == "mem_latency_curve":
			return g == "cache" || g == "mem_latency_curve" && !inB
		}
		return false
	}
	var groups []string
	for _, k := range slices.Sorted(maps.Keys(pb)) {
		g := ParamGroup(k)
		if slices.Contains(groups, g) {
			continue
		}
		groups = append(groups, g)
		m, err := WithParamOf(a, b, g)
		if err != nil {
			t.Fatalf("WithParamOf(%s): %v", g, err)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("WithParamOf(%s) is not a valid machine: %v", g, err)
		}
		pm := Params(m)
		for j, v := range pm {
			want, from := pa[j], "a's"
			if ParamGroup(j) == g {
				want, from = pb[j], "b's"
			}
			_, inA := pa[j]
			_, inB := pb[j]
			if follows(j, g) {
				continue
			}
			if from == "a's" && !inA || from == "b's" && !inB {
				t.Errorf("WithParamOf(%s): %s = %g, which %s machine does not have", g, j, v, from)
				continue
			}
			if v != want {
				t.Errorf("WithParamOf(%s): %s = %g, want %s %g", g, j, v, from, want)
			}
		}
	}
	// Every group in turn gives b: the groups cover what Params reads.
	cur := a
	for _, g := range groups {
		var err error
		if cur, err = WithParamOf(cur, b, g); err != nil {
			t.Fatal(err)
		}
	}
	if got := Params(cur); !reflect.DeepEqual(got, pb) {
		t.Errorf("every group of b in a: Params differ from b's:\n got %v\nwant %v", got, pb)
	}
	if !reflect.DeepEqual(a, orig) {
		t.Error("WithParamOf changed the machine it was given")
	}
	for _, bad := range []string{"levels[7].latency", "levels[0].beta1", "levels[0].colour", "core_rates.shellsort", "colour"} {
		if _, err := WithParamOf(a, b, bad); err == nil {
			t.Errorf("WithParamOf(%q): no error", bad)
		}
	}
}
