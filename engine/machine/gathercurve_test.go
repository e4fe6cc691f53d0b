package machine

import (
	"math"
	"strings"
	"testing"
)

// TestGatherAt: the curve read linearly in log span between its points,
// by hand: halfway in log from 32 MiB (4 ns) to 128 MiB (8 ns) is 64 MiB,
// 6 ns; a quarter of the way (45.25 MiB, √2·32) 5 ns. Outside the curve,
// or without one, it says nothing.
func TestGatherAt(t *testing.T) {
	m := Machine{GatherCurve: []GatherPoint{{32 << 20, 4e-9}, {128 << 20, 8e-9}, {512 << 20, 9e-9}}}
	for _, c := range []struct {
		span float64
		want float64
		ok   bool
	}{
		{32 << 20, 4e-9, true},
		{64 << 20, 6e-9, true},
		{math.Sqrt2 * (32 << 20), 5e-9, true},
		{256 << 20, 8.5e-9, true},
		{512 << 20, 9e-9, true},
		{16 << 20, 0, false},
		{1 << 30, 0, false},
		{math.NaN(), 0, false},
	} {
		got, ok := m.GatherAt(c.span)
		if ok != c.ok || math.Abs(got-c.want) > 1e-18 {
			t.Errorf("GatherAt(%g) = %g, %v; want %g, %v", c.span, got, ok, c.want, c.ok)
		}
	}
	if _, ok := (Machine{}).GatherAt(64 << 20); ok {
		t.Error("a machine without a curve read one")
	}
}

// TestValidateGatherCurve: each rule names its point and field.
func TestValidateGatherCurve(t *testing.T) {
	ok := []GatherPoint{{32 << 20, 4e-9}, {64 << 20, 5e-9}}
	if es := ValidateGatherCurve(ok); len(es) != 0 {
		t.Fatalf("a good curve: %v", es)
	}
	for _, c := range []struct {
		ps   []GatherPoint
		want string
	}{
		{ok[:1], "gather_curve: a gather curve needs at least two points (spans past the last cache); got one"},
		{[]GatherPoint{{32 << 20, 4e-9}, {32 << 20, 5e-9}}, "gather_curve[1].span: the points' spans must increase: 32 MiB follows 32 MiB"},
		{[]GatherPoint{{512, 4e-9}, {64 << 20, 5e-9}}, "gather_curve[0].span: a point's span must be from 1 KiB to 1 TiB; got 512 B"},
		{[]GatherPoint{{32 << 20, 0}, {64 << 20, 5e-9}}, "gather_curve[0].read: a read's time must be above 0 and up to 10 µs (e.g. 5.4 ns); got 0 s"},
		{[]GatherPoint{{32 << 20, 4e-9}, {64 << 20, math.NaN()}}, "gather_curve[1].read: a read's time must be above 0 and up to 10 µs (e.g. 5.4 ns); got NaN"},
		{make([]GatherPoint, MaxGatherPoints+1), "gather_curve: a gather curve has at most 32 points; got 33"},
	} {
		es := ValidateGatherCurve(c.ps)
		if len(es) == 0 || es[0].Error() != c.want {
			t.Errorf("%v: got %v\nwant %s", c.ps, es, c.want)
		}
	}
}

// TestGatherCurveFile: a file's curve in bytes and seconds or with units,
// read back the same, and its bad points named.
func TestGatherCurveFile(t *testing.T) {
	in := `{"name":"g","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","gather_curve":[{"span":"32 MiB","read":"4 ns"},{"span":67108864,"read":5.4e-9}]}`
	m, err := ParseJSON([]byte(in))
	want := []GatherPoint{{32 << 20, 4e-9}, {64 << 20, 5.4e-9}}
	if err != nil || len(m.GatherCurve) != 2 {
		t.Fatalf("%v %+v", err, m.GatherCurve)
	}
	for i, p := range m.GatherCurve {
		if p.Span != want[i].Span || math.Abs(p.Read-want[i].Read) > 1e-20 {
			t.Errorf("point %d = %+v, want %+v", i, p, want[i])
		}
	}
	if back, err := ParseJSON(m.JSON()); err != nil || !back.SameParameters(m) {
		t.Fatalf("round trip: %v\n%s", err, m.JSON())
	}
	if o := m; true {
		o.GatherCurve = []GatherPoint{{32 << 20, 4e-9}, {64 << 20, 5.5e-9}}
		if o.SameParameters(m) {
			t.Error("another curve has the same parameters")
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{`"span":"32 MiB"`, `"span":32.5`, "gather_curve[0].span: must be a whole number of bytes up to 1 TiB; got 32.5"},
		{`"read":"4 ns"`, `"read":"soon"`, `gather_curve[0].read: "soon" does not start with a number`},
		{`"read":"4 ns"`, `"read":"20 µs"`, "gather_curve[0].read: a read's time must be above 0 and up to 10 µs (e.g. 5.4 ns); got 20 µs"},
	} {
		_, err := ParseJSON([]byte(strings.Replace(in, c.from, c.to, 1)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.to, err, c.want)
		}
	}
	if s, ok := m.Scaled("gather_curve", 1.5); !ok || math.Abs(s.GatherCurve[1].Read-8.1e-9) > 1e-20 || m.GatherCurve[1].Read != 5.4e-9 {
		t.Errorf("Scaled: %+v, %v (the original %+v)", s.GatherCurve, ok, m.GatherCurve)
	}
}
