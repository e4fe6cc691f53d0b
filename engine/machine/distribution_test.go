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
	m, err := machine.ParseJSON([]byte(six + `"distribution": [{"size": 16384, "count": 1e-8, "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": 5.8e-8}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9}, {Size: 64 << 20, Count: 27e-9, Scatter: 58e-9}}
	if len(m.Distribution) != 2 || m.Distribution[0] != want[0] || m.Distribution[1] != want[1] {
		t.Errorf("curve %+v, want %+v", m.Distribution, want)
	}
	for _, c := range []struct{ body, field string }{
		{`"distribution": [{"size": 16384, "count": "fast", "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[0].count"},
		{`"distribution": [{"size": 16384.5, "count": "1 ns", "scatter": "13 ns"}, {"size": "64 MiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[0].size"},
		{`"distribution": [{"size": "64 MiB", "count": "1 ns", "scatter": "13 ns"}, {"size": "16 KiB", "count": "27 ns", "scatter": "58 ns"}]}`, "distribution[1].size"},
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
