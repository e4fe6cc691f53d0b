package machine

import (
	"math"
	"strings"
	"testing"
)

// TestColumnReadAt: reads worked by hand on a curve of two place counts.
// Between 16 and 64 lines at one place, 32 lies halfway in log lines:
// 1 + 0.5·(2 − 1) = 1.5 ns; at 64 places 128 lies half of log(1024/16)
// along: 0.5 + 0.5·0.5 = 0.75 ns. A place count not on the curve takes
// the nearest in log scale, the fewer of two as near (8 is 3 from 1 and
// from 64); lines past the ends hold the ends.
func TestColumnReadAt(t *testing.T) {
	m := Machine{ColumnCurve: []ColumnPoint{{1, 16, 1e-9}, {1, 64, 2e-9}, {64, 16, 0.5e-9}, {64, 1024, 1e-9}}}
	for _, c := range []struct{ places, lines, want float64 }{
		{1, 32, 1.5e-9},
		{2, 32, 1.5e-9},
		{1, 8, 1e-9},
		{1, 1 << 20, 2e-9},
		{64, 128, 0.75e-9},
		{32, 128, 0.75e-9},
		{64, 4096, 1e-9},
		{8, 16, 1e-9},
		{16, 16, 0.5e-9},
	} {
		got, ok := m.ColumnReadAt(c.places, c.lines)
		if !ok || math.Abs(got-c.want) > 1e-18 {
			t.Errorf("ColumnReadAt(%g, %g) = %g, %v; want %g", c.places, c.lines, got, ok, c.want)
		}
	}
	if _, ok := (Machine{}).ColumnReadAt(1, 16); ok {
		t.Error("a machine without a curve read one")
	}
}

func TestValidateColumnCurve(t *testing.T) {
	good := []ColumnPoint{{1, 16, 1e-9}, {1, 64, 2e-9}, {64, 16, 0.5e-9}}
	if es := ValidateColumnCurve(good); len(es) != 0 {
		t.Fatalf("good curve: %v", es)
	}
	many := make([]ColumnPoint, MaxColumnPoints+1)
	for i := range many {
		many[i] = ColumnPoint{1, int64(i + 1), 1e-9}
	}
	for _, c := range []struct {
		name string
		ps   []ColumnPoint
		want string
	}{
		{"places not a power of two", []ColumnPoint{{3, 16, 1e-9}}, "column_curve[0].places: a point's places must be a power of two from 1 to 64; got 3"},
		{"places past a page's lines", []ColumnPoint{{128, 16, 1e-9}}, "column_curve[0].places: a point's places must be a power of two from 1 to 64; got 128"},
		{"places out of order", []ColumnPoint{{64, 16, 1e-9}, {1, 16, 1e-9}}, "column_curve[1].places: the points must be ordered by places: 1 follows 64"},
		{"lines not increasing", []ColumnPoint{{1, 64, 1e-9}, {1, 64, 1e-9}}, "column_curve[1].lines: the lines of the points at 1 places must increase: 64 follows 64"},
		{"no lines", []ColumnPoint{{1, 0, 1e-9}}, "column_curve[0].lines: a point's lines must be a whole number from 1 to 16777216; got 0"},
		{"a zero time", []ColumnPoint{{1, 16, 0}}, "column_curve[0].read: time per step must be above 0 and up to 1 µs (e.g. 0.8 ns); got 0 s"},
		{"a NaN time", []ColumnPoint{{1, 16, math.NaN()}}, "column_curve[0].read: time per step must be above 0 and up to 1 µs (e.g. 0.8 ns); got NaN"},
		{"too many points", many, "column_curve: a column curve has at most 128 points; got 129"},
	} {
		es := ValidateColumnCurve(c.ps)
		if len(es) != 1 || es.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, es, c.want)
		}
	}
}

// TestColumnCurveFile: a file's curve reads with units and in base
// units, round-trips, and a bad point is named.
func TestColumnCurveFile(t *testing.T) {
	in := `{"name":"c","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","column_curve":[{"places":1,"lines":16,"read":"1 ns"},{"places":1,"lines":"1Ki","read":3.3e-9},{"places":64,"lines":16,"read":"0.45 ns"}]}`
	m, err := ParseJSON([]byte(in))
	want := []ColumnPoint{{1, 16, 1e-9}, {1, 1024, 3.3e-9}, {64, 16, 0.45e-9}}
	if err != nil || len(m.ColumnCurve) != 3 {
		t.Fatalf("%v %+v", err, m.ColumnCurve)
	}
	for i, p := range m.ColumnCurve {
		if p.Places != want[i].Places || p.Lines != want[i].Lines || math.Abs(p.Read-want[i].Read) > 1e-20 {
			t.Errorf("point %d = %+v, want %+v", i, p, want[i])
		}
	}
	if back, err := ParseJSON(m.JSON()); err != nil || !back.SameParameters(m) {
		t.Fatalf("round trip: %v\n%s", err, m.JSON())
	}
	for _, c := range []struct{ from, to, want string }{
		{`"places":64`, `"places":3`, "column_curve[2].places: a point's places must be a power of two from 1 to 64; got 3"},
		{`"places":64`, `"places":1.5`, "column_curve[2].places: a point's places must be a power of two from 1 to 64; got 1.5"},
		{`"lines":"1Ki"`, `"lines":"many"`, `column_curve[1].lines: "many" does not start with a number`},
		{`"read":"1 ns"`, `"read":"-1 ns"`, "column_curve[0].read: time per step must be above 0 and up to 1 µs (e.g. 0.8 ns); got -1 ns"},
	} {
		_, err := ParseJSON([]byte(strings.Replace(in, c.from, c.to, 1)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.to, err, c.want)
		}
	}
}
