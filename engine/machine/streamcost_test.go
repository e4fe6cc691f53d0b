package machine_test

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// streamCurve is the shape the AMD guest's calibration reads: fast into
// few buckets, a band of slow counts, fast again.
var streamCurve = []machine.StreamPoint{
	{Buckets: 8, Scatter: 18e-9},
	{Buckets: 16, Scatter: 16e-9},
	{Buckets: 32, Scatter: 28e-9},
	{Buckets: 64, Scatter: 20e-9},
	{Buckets: 256, Scatter: 40e-9},
}

// TestStreamExcess: the curve read linearly in log buckets, less its
// fastest point (16 ns). By hand: 24 buckets lie log2(24/16) = 0.585 of
// the way from 16 to 32, so 16 + 0.585·12 = 23.02 ns, an excess of
// 7.02; 128 lies half way from 64 to 256 in log, 30 ns, excess 14.
// Counts outside the curve, fewer than its first or more than its last,
// or no count at all, say nothing.
func TestStreamExcess(t *testing.T) {
	m := machine.Machine{StreamCost: streamCurve}
	for _, c := range []struct {
		b    float64
		want float64
		ok   bool
	}{
		{2, 0, false},
		{7.9, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
		{8, 2e-9, true},
		{16, 0, true},
		{24, 12e-9 * math.Log2(1.5), true},
		{32, 12e-9, true},
		{64, 4e-9, true},
		{128, 14e-9, true},
		{256, 24e-9, true},
		{257, 0, false},
	} {
		got, ok := m.StreamExcess(c.b)
		if ok != c.ok || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("StreamExcess(%g) = %g, %v; want %g, %v", c.b, got, ok, c.want, c.ok)
		}
	}
	if _, ok := (machine.Machine{}).StreamExcess(16); ok {
		t.Error("a machine without a curve reads one")
	}
}

// TestStreamAt: the curve itself, read as StreamExcess reads it, and
// below its first point the first's (2 and 7.9 buckets: 18 ns); past
// its last point, or at no count, nothing.
func TestStreamAt(t *testing.T) {
	m := machine.Machine{StreamCost: streamCurve}
	for _, c := range []struct {
		b    float64
		want float64
		ok   bool
	}{
		{2, 18e-9, true},
		{7.9, 18e-9, true},
		{16, 16e-9, true},
		{24, 16e-9 + 12e-9*math.Log2(1.5), true},
		{128, 30e-9, true},
		{256, 40e-9, true},
		{257, 0, false},
		{0, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
	} {
		got, ok := m.StreamAt(c.b)
		if ok != c.ok || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("StreamAt(%g) = %g, %v; want %g, %v", c.b, got, ok, c.want, c.ok)
		}
	}
	if _, ok := (machine.Machine{}).StreamAt(16); ok {
		t.Error("a machine without a curve reads one")
	}
}

func TestValidateStreamCost(t *testing.T) {
	bad := func(edit func(ps []machine.StreamPoint)) []machine.StreamPoint {
		ps := append([]machine.StreamPoint(nil), streamCurve...)
		edit(ps)
		return ps
	}
	for _, c := range []struct {
		name, field string
		ps          []machine.StreamPoint
	}{
		{"one point", "stream_cost", streamCurve[:1]},
		{"too many", "stream_cost", make([]machine.StreamPoint, machine.MaxStreamPoints+1)},
		{"out of order", "stream_cost[2].buckets", bad(func(ps []machine.StreamPoint) { ps[2].Buckets = 12 })},
		{"one bucket", "stream_cost[0].buckets", bad(func(ps []machine.StreamPoint) { ps[0].Buckets = 1 })},
		{"past the streams' bound", "stream_cost[4].buckets", bad(func(ps []machine.StreamPoint) { ps[4].Buckets = machine.MaxStreams + 1 })},
		{"zero time", "stream_cost[1].scatter", bad(func(ps []machine.StreamPoint) { ps[1].Scatter = 0 })},
		{"NaN time", "stream_cost[3].scatter", bad(func(ps []machine.StreamPoint) { ps[3].Scatter = math.NaN() })},
		{"a second a line", "stream_cost[3].scatter", bad(func(ps []machine.StreamPoint) { ps[3].Scatter = 1 })},
	} {
		if es := machine.ValidateStreamCost(c.ps); es.Field(c.field) == "" {
			t.Errorf("%s: errors %v; want one for %s", c.name, es, c.field)
		}
	}
	if es := machine.ValidateStreamCost(streamCurve); len(es) > 0 {
		t.Errorf("a good curve: %v", es)
	}
}

// A machine file's stream curve reads in seconds or with units, survives
// the file written back, and a bad point is named.
func TestParseStreamCost(t *testing.T) {
	const six = `{"name": "R", "beta1": "10 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "1 MiB", "line": 64, "mispredict": "5 ns", `
	m, err := machine.ParseJSON([]byte(six + `"stream_cost": [{"buckets": 8, "scatter": 1.8e-8}, {"buckets": "64", "scatter": "20 ns"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []machine.StreamPoint{{Buckets: 8, Scatter: 18e-9}, {Buckets: 64, Scatter: 20e-9}}
	if len(m.StreamCost) != 2 || m.StreamCost[0] != want[0] || m.StreamCost[1] != want[1] {
		t.Errorf("curve %+v, want %+v", m.StreamCost, want)
	}
	back, err := machine.ParseJSON(m.JSON())
	if err != nil || !back.SameParameters(m) {
		t.Errorf("written back: %+v, %v", back.StreamCost, err)
	}
	for _, c := range []struct{ body, field string }{
		{`"stream_cost": [{"buckets": 8.5, "scatter": "18 ns"}, {"buckets": 64, "scatter": "20 ns"}]}`, "stream_cost[0].buckets"},
		{`"stream_cost": [{"buckets": 8, "scatter": "quick"}, {"buckets": 64, "scatter": "20 ns"}]}`, "stream_cost[0].scatter"},
		{`"stream_cost": [{"buckets": 64, "scatter": "18 ns"}, {"buckets": 8, "scatter": "20 ns"}]}`, "stream_cost[1].buckets"},
		{`"stream_cost": [{"buckets": 8, "scatter": "18 ns"}]}`, "stream_cost"},
	} {
		_, err := machine.ParseJSON([]byte(six + c.body))
		es, ok := err.(machine.Errors)
		if !ok || es.Field(c.field) == "" {
			t.Errorf("%s: error %v; want one for %s", c.body, err, c.field)
		}
	}
	if _, err := machine.ParseJSON([]byte(six + `"stream_cost": [` + strings.Repeat(`{"buckets": 8, "scatter": 1e-8},`, machine.MaxStreamPoints) + `{"buckets": 8, "scatter": 1e-8}]}`)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("too many points: %v", err)
	}
}
