package machine_test

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// chase is the shape of the development guest's chase past its last
// cache, rounded: 188 ns at 512 MiB, 222 at 1 GiB, 343 at 2 GiB.
var chase = []machine.LatencyPoint{
	{Span: 512 << 20, Latency: 188e-9},
	{Span: 1 << 30, Latency: 222e-9},
	{Span: 2 << 30, Latency: 343e-9},
}

// TestMemLatencyAt: between points the curve is linear in log span
// (724 MiB ≈ 2^29.5 is half way from 512 MiB to 1 GiB: 205 ns; 1.5 GiB
// is log2 1.5 = 0.585 of the way to 2 GiB: 222 + 0.585·121 ns), held at
// its ends, and a machine without a curve gives its one number.
func TestMemLatencyAt(t *testing.T) {
	m := machine.Machine{MemLatency: 300e-9, MemLatencyCurve: chase}
	for _, c := range []struct{ span, want float64 }{
		{1 << 20, 188e-9},
		{512 << 20, 188e-9},
		{math.Pow(2, 29.5), 205e-9},
		{1 << 30, 222e-9},
		{1.5 * (1 << 30), 222e-9 + math.Log2(1.5)*121e-9},
		{2 << 30, 343e-9},
		{1 << 40, 343e-9},
	} {
		if got := m.MemLatencyAt(c.span); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("MemLatencyAt(%g) = %g; want %g", c.span, got, c.want)
		}
	}
	if got := (machine.Machine{MemLatency: 300e-9}).MemLatencyAt(1 << 30); got != 300e-9 {
		t.Errorf("without a curve: %g; want mem_latency, 300 ns", got)
	}
	if got := (machine.Machine{}).MemLatencyAt(1 << 30); got != 0 {
		t.Errorf("without either: %g; want 0", got)
	}
}

// TestValidateLatencyCurve: each bad curve is named by its point and
// field.
func TestValidateLatencyCurve(t *testing.T) {
	if es := machine.ValidateLatencyCurve(chase); len(es) > 0 {
		t.Fatalf("a good curve: %v", es)
	}
	if es := machine.ValidateLatencyCurve(nil); len(es) > 0 {
		t.Fatalf("no curve: %v", es)
	}
	long := make([]machine.LatencyPoint, machine.MaxLatencyPoints+1)
	for i := range long {
		long[i] = machine.LatencyPoint{Span: int64(1<<20) << (i % 20), Latency: 1e-7}
	}
	for _, c := range []struct {
		name  string
		ps    []machine.LatencyPoint
		field string
	}{
		{"one point", chase[:1], "mem_latency_curve"},
		{"too many", long, "mem_latency_curve"},
		{"span too small", []machine.LatencyPoint{{Span: 512, Latency: 1e-7}, chase[1]}, "mem_latency_curve[0].span"},
		{"spans out of order", []machine.LatencyPoint{chase[1], chase[0]}, "mem_latency_curve[1].span"},
		{"zero latency", []machine.LatencyPoint{chase[0], {Span: 1 << 30}}, "mem_latency_curve[1].latency"},
		{"NaN latency", []machine.LatencyPoint{chase[0], {Span: 1 << 30, Latency: math.NaN()}}, "mem_latency_curve[1].latency"},
		{"latency over 10 µs", []machine.LatencyPoint{chase[0], {Span: 1 << 30, Latency: 2e-5}}, "mem_latency_curve[1].latency"},
	} {
		if es := machine.ValidateLatencyCurve(c.ps); es.Field(c.field) == "" {
			t.Errorf("%s: %v; want an error for %s", c.name, es, c.field)
		}
	}
}

// TestParseLatencyCurve: a machine file's curve reads in base units and
// with units, and a bad point is named.
func TestParseLatencyCurve(t *testing.T) {
	const six = `{"name": "R", "beta1": "10 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "1 MiB", "line": 64, "mispredict": "5 ns", `
	m, err := machine.ParseJSON([]byte(six + `"mem_latency_curve": [{"span": "512 MiB", "latency": "188 ns"}, {"span": 1073741824, "latency": 2.22e-7}]}`))
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b machine.LatencyPoint) bool { return a.Span == b.Span && math.Abs(a.Latency-b.Latency) < 1e-18 }
	if len(m.MemLatencyCurve) != 2 || !near(m.MemLatencyCurve[0], chase[0]) || !near(m.MemLatencyCurve[1], chase[1]) {
		t.Errorf("curve %+v, want %+v", m.MemLatencyCurve, chase[:2])
	}
	back, err := machine.ParseJSON(m.JSON())
	if err != nil || !back.SameParameters(m) {
		t.Errorf("written and read again: %+v, %v", back.MemLatencyCurve, err)
	}
	for _, c := range []struct{ body, field string }{
		{`"mem_latency_curve": [{"span": "512 MiB", "latency": "slow"}, {"span": "1 GiB", "latency": "222 ns"}]}`, "mem_latency_curve[0].latency"},
		{`"mem_latency_curve": [{"span": 1024.5, "latency": "1 ns"}, {"span": "1 GiB", "latency": "222 ns"}]}`, "mem_latency_curve[0].span"},
		{`"mem_latency_curve": [{"span": "1 GiB", "latency": "188 ns"}, {"span": "512 MiB", "latency": "222 ns"}]}`, "mem_latency_curve[1].span"},
		{`"mem_latency_curve": [{"span": "1 GiB", "latency": "188 ns"}]}`, "mem_latency_curve"},
	} {
		_, err := machine.ParseJSON([]byte(six + c.body))
		es, ok := err.(machine.Errors)
		if !ok || es.Field(c.field) == "" {
			t.Errorf("%s: error %v; want one for %s", c.body, err, c.field)
		}
	}
	if _, err := machine.ParseJSON([]byte(six + `"mem_latency_curve": [` + strings.Repeat(`{"span": 16384, "latency": 1e-7},`, machine.MaxLatencyPoints) + `{"span": 16384, "latency": 1e-7}]}`)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("too many points: %v", err)
	}
}

// TestScaledLatencyCurve: the spread of mem_latency moves the whole
// curve with the one number, and leaves the original alone.
func TestScaledLatencyCurve(t *testing.T) {
	m := machine.Machine{MemLatency: 343e-9, MemLatencyCurve: chase}
	s, ok := m.Scaled("mem_latency", 1.1)
	if !ok {
		t.Fatal("mem_latency not found")
	}
	for i, p := range s.MemLatencyCurve {
		if p.Span != chase[i].Span || math.Abs(p.Latency-1.1*chase[i].Latency) > 1e-18 {
			t.Errorf("point %d: %+v; want %v at %d", i, p, 1.1*chase[i].Latency, chase[i].Span)
		}
	}
	if m.MemLatencyCurve[0].Latency != 188e-9 {
		t.Error("Scaled changed the original's curve")
	}
	if _, ok := (machine.Machine{MemLatencyCurve: chase}).Scaled("mem_latency", 1.1); !ok {
		t.Error("a curve without the one number is not scaled")
	}
}

// TestDependentReach: the span where the curve has risen halfway from the
// last level's latency (15 ns) to memory's at twice the level's 8 MiB
// (135 ns at 16 MiB): 75 ns, half way from 25 ns at 4 MiB to 125 at
// 8 MiB, so 4 MiB·√2 in log span. A curve past 75 ns at its first point
// reaches that point; one that stays under 75 ns below the level, or
// starts at it (a calibration before the curve went below the cache),
// reaches the whole level; a machine without a curve too, and one
// without levels reaches nothing. Without the level's latency the rise
// is read from the curve's first point.
func TestDependentReach(t *testing.T) {
	const mi = 1 << 20
	m := machine.Machine{Name: "t", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 150e-9}.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
		{Name: "L2", Size: 1 * mi, Line: 64, Beta1: 64e9, Beta2: 32e9, Latency: 4e-9},
		{Name: "L3", Size: 8 * mi, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 15e-9},
	})
	tail := []machine.LatencyPoint{{Span: 16 * mi, Latency: 135e-9}, {Span: 32 * mi, Latency: 150e-9}}
	for _, c := range []struct {
		name  string
		curve []machine.LatencyPoint
		noLat bool
		want  float64
	}{
		{"halfway at 4 MiB·√2", []machine.LatencyPoint{{Span: 2 * mi, Latency: 15e-9}, {Span: 4 * mi, Latency: 25e-9}, {Span: 8 * mi, Latency: 125e-9}}, false, 4 * mi * math.Sqrt2},
		{"past halfway at its first point", []machine.LatencyPoint{{Span: 4 * mi, Latency: 90e-9}, {Span: 8 * mi, Latency: 125e-9}}, false, 4 * mi},
		{"under halfway below the level", []machine.LatencyPoint{{Span: 2 * mi, Latency: 15e-9}, {Span: 4 * mi, Latency: 18e-9}, {Span: 8 * mi, Latency: 20e-9}}, false, 8 * mi},
		{"from the level on", []machine.LatencyPoint{{Span: 8 * mi, Latency: 20e-9}}, false, 8 * mi},
		// Without L3's latency the rise starts at 2 MiB's 35 ns: halfway
		// to 135 is 85, a step of 60 ns of 100 from 4 MiB's 25 ns.
		{"from the first point", []machine.LatencyPoint{{Span: 2 * mi, Latency: 35e-9}, {Span: 4 * mi, Latency: 25e-9}, {Span: 8 * mi, Latency: 125e-9}}, true, 4 * mi * math.Pow(2, 0.6)},
	} {
		mc := m
		mc.Levels = append([]machine.Level(nil), m.Levels...)
		if c.noLat {
			mc.Levels[2].Latency = 0
		}
		mc.MemLatencyCurve = append(append([]machine.LatencyPoint(nil), c.curve...), tail...)
		if got := mc.DependentReach(); math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("%s: %g B, want %g", c.name, got, c.want)
		}
	}
	if got := m.DependentReach(); got != 8*mi {
		t.Errorf("without a curve: %g B, want the level's 8 MiB", got)
	}
	if got := (machine.Machine{MemLatencyCurve: tail}).DependentReach(); got != 0 {
		t.Errorf("without levels: %g B, want 0", got)
	}
}
