package machine_test

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

var curve = []machine.DistPoint{
	{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9},
	{Size: 64 << 10, Count: 12e-9, Scatter: 17e-9},
	{Size: 64 << 20, Count: 27e-9, Scatter: 58e-9},
}

// TestDistributionAt: between points the curve is linear in log size
// (32 KiB is half way from 16 to 64 KiB: 11 and 15 ns), and held at its
// ends.
func TestDistributionAt(t *testing.T) {
	m := machine.Machine{Distribution: curve}
	for _, c := range []struct {
		size       float64
		cnt, scatt float64
	}{
		{1 << 10, 10e-9, 13e-9},
		{16 << 10, 10e-9, 13e-9},
		{32 << 10, 11e-9, 15e-9},
		{64 << 10, 12e-9, 17e-9},
		// 2 MiB is 5 of the 10 doublings from 64 KiB to 64 MiB.
		{2 << 20, 19.5e-9, 37.5e-9},
		{1 << 40, 27e-9, 58e-9},
	} {
		cn, sc, ok := m.DistributionAt(c.size)
		if !ok || math.Abs(cn-c.cnt) > 1e-15 || math.Abs(sc-c.scatt) > 1e-15 {
			t.Errorf("DistributionAt(%g) = %g, %g, %v; want %g, %g", c.size, cn, sc, ok, c.cnt, c.scatt)
		}
	}
	if _, _, ok := (machine.Machine{}).DistributionAt(1 << 20); ok {
		t.Error("a machine without a curve reads one")
	}
}

// TestWalkAt: the walks read off the curve as the loops' times are (8 MiB
// is 7 of the 10 doublings from 64 KiB to 64 MiB: 0.1 + 0.7·7.5 ns), and
// a curve without walks gives none.
func TestWalkAt(t *testing.T) {
	walked := append([]machine.DistPoint(nil), curve...)
	walked[0].Walk, walked[1].Walk, walked[2].Walk = 0, 0.1e-9, 7.6e-9
	m := machine.Machine{Distribution: walked}
	for _, c := range []struct{ span, want float64 }{
		{1 << 10, 0},
		{64 << 10, 0.1e-9},
		{8 << 20, 0.1e-9 + 0.7*7.5e-9},
		{1 << 40, 7.6e-9},
	} {
		if got := m.WalkAt(c.span); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("WalkAt(%g) = %g; want %g", c.span, got, c.want)
		}
	}
	if got := (machine.Machine{Distribution: curve}).WalkAt(8 << 20); got != 0 {
		t.Errorf("a curve without walks gives %g", got)
	}
}

// TestWalkReach: 1 ns is reached between the walks of 0.1 ns at 64 KiB
// and 7.6 ns at 64 MiB, 0.9/7.5 of the 10 doublings on: 64 KiB·2^1.2;
// a first point already past it is the reach; a curve that never gets
// there has none.
func TestWalkReach(t *testing.T) {
	walked := append([]machine.DistPoint(nil), curve...)
	walked[1].Walk, walked[2].Walk = 0.1e-9, 7.6e-9
	if got, want := (machine.Machine{Distribution: walked}).WalkReach(), float64(64<<10)*math.Pow(2, 1.2); math.Abs(got-want) > 1e-6*want {
		t.Errorf("WalkReach = %g; want %g", got, want)
	}
	walked[0].Walk = 2e-9
	if got := (machine.Machine{Distribution: walked}).WalkReach(); got != 16<<10 {
		t.Errorf("WalkReach with the first point past 1 ns = %g; want 16 KiB", got)
	}
	for _, ps := range [][]machine.DistPoint{curve, nil} {
		if got := (machine.Machine{Distribution: ps}).WalkReach(); got != 0 {
			t.Errorf("WalkReach of %v = %g; want 0", ps, got)
		}
	}
}

func TestValidateDistribution(t *testing.T) {
	bad := func(edit func(ps []machine.DistPoint) []machine.DistPoint) []machine.DistPoint {
		return edit(append([]machine.DistPoint(nil), curve...))
	}
	for _, c := range []struct {
		name, field string
		ps          []machine.DistPoint
	}{
		{"one point", "distribution", curve[:1]},
		{"sizes out of order", "distribution[2].size", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[2].Size = 32 << 10; return ps })},
		{"tiny size", "distribution[0].size", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[0].Size = 512; return ps })},
		{"zero count", "distribution[1].count", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[1].Count = 0; return ps })},
		{"NaN scatter", "distribution[1].scatter", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[1].Scatter = math.NaN(); return ps })},
		{"a second a line", "distribution[2].scatter", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[2].Scatter = 1; return ps })},
		{"too many", "distribution", make([]machine.DistPoint, machine.MaxDistPoints+1)},
		{"negative walk", "distribution[1].walk", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[1].Walk = -1e-9; return ps })},
		{"NaN walk", "distribution[0].walk", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[0].Walk = math.NaN(); return ps })},
		{"a second a walk", "distribution[2].walk", bad(func(ps []machine.DistPoint) []machine.DistPoint { ps[2].Walk = 1; return ps })},
	} {
		es := machine.ValidateDistribution(c.ps)
		if es.Field(c.field) == "" {
			t.Errorf("%s: errors %v; want one for %s", c.name, es, c.field)
		}
	}
	if es := machine.ValidateDistribution(curve); len(es) > 0 {
		t.Errorf("a good curve: %v", es)
	}
}

// A machine file's curve reads in seconds and bytes, or with units; a bad
// point is named.
func TestParseDistribution(t *testing.T) {
	const six = `{"name": "R", "beta1": "10 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "1 MiB", "line": 64, "mispredict": "5 ns", `
	m, err := machine.ParseJSON([]byte(six + `"distribution": [{"size": 16384, "count": 1e-8, "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": 5.8e-8, "walk": 7.5e-9}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9}, {Size: 64 << 20, Count: 27e-9, Scatter: 58e-9, Walk: 7.5e-9}}
	if len(m.Distribution) != 2 || m.Distribution[0] != want[0] || m.Distribution[1] != want[1] {
		t.Errorf("curve %+v, want %+v", m.Distribution, want)
	}
	for _, c := range []struct{ body, field string }{
		{`"distribution": [{"size": 16384, "count": "fast", "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[0].count"},
		{`"distribution": [{"size": 16384.5, "count": "1 ns", "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[0].size"},
		{`"distribution": [{"size": "64 MiB", "count": "1 ns", "scatter": "13 ns"}, {"size": "16 KiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[1].size"},
		{`"distribution": [{"size": "16 KiB", "count": "1 ns", "scatter": "13 ns", "walk": "slow"}, {"size": "64 MiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[0].walk"},
	} {
		_, err := machine.ParseJSON([]byte(six + c.body))
		es, ok := err.(machine.Errors)
		if !ok || es.Field(c.field) == "" {
			t.Errorf("%s: error %v; want one for %s", c.body, err, c.field)
		}
	}
	if _, err := machine.ParseJSON([]byte(six + `"distribution": [` + strings.Repeat(`{"size": 16384, "count": 1e-8, "scatter": 1e-8},`, machine.MaxDistPoints) + `{"size": 16384, "count": 1e-8, "scatter": 1e-8}]}`)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("too many points: %v", err)
	}
}

// TestPutAt: the simple sorts' loop reads off the curve as the others do,
// at the size whose put loop moved as many keys (PutKeys): 1.6 MiB of
// keys reads the point of 2 MiB, 5 of the 10 doublings from 64 KiB to
// 64 MiB (20 + 0.5·40 ns); 2 MiB of keys reads 2.5 MiB, log2 40 = 5.32
// doublings (41.29 ns). A curve with put at some points only gives
// none, and fails validation naming the curve.
func TestPutAt(t *testing.T) {
	put := append([]machine.DistPoint(nil), curve...)
	put[0].Put, put[1].Put, put[2].Put = 18e-9, 20e-9, 60e-9
	m := machine.Machine{Distribution: put}
	for _, c := range []struct{ size, want float64 }{
		{1 << 10, 18e-9},
		{0.8 * (2 << 20), 40e-9},
		{2 << 20, 20e-9 + 40e-9*math.Log2(40)/10},
		{1 << 40, 60e-9},
	} {
		if got, ok := m.PutAt(c.size); !ok || math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("PutAt(%g) = %g, %v; want %g", c.size, got, ok, c.want)
		}
	}
	if es := machine.ValidateDistribution(put); len(es) != 0 {
		t.Errorf("a curve with put everywhere: %v", es)
	}
	put[1].Put = 0
	if _, ok := (machine.Machine{Distribution: put}).PutAt(2 << 20); ok {
		t.Error("a curve with put at two points of three reads one")
	}
	if es := machine.ValidateDistribution(put); len(es) != 1 || es[0].Field != "distribution" {
		t.Errorf("a curve with put at two points of three: %v, want one error on distribution", es)
	}
}
