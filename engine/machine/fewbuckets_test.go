package machine_test

import (
	"math"
	"testing"

	"memwall/engine/machine"
)

// fewCurve is a few-bucket curve of three points, put timed.
var fewCurve = []machine.FewPoint{
	{Buckets: 2, Count: 16e-9, Scatter: 20e-9, Put: 22e-9},
	{Buckets: 8, Count: 10e-9, Scatter: 14e-9, Put: 19e-9},
	{Buckets: 32, Count: 8e-9, Scatter: 12e-9, Put: 18e-9},
}

// TestFewBucketsAt: the curve read linearly in log buckets and held at
// its first point below it. By hand: 4 buckets lie half way from 2 to 8
// in log, count (16 + 10)/2 = 13, scatter 17, put 20.5 ns; 16 half way
// from 8 to 32, count 9, scatter 13, put 18.5. Past the last point (64,
// the distribution curve's), or with no count, it says nothing.
func TestFewBucketsAt(t *testing.T) {
	m := machine.Machine{FewBuckets: fewCurve}
	for _, c := range []struct {
		b                   float64
		count, scatter, put float64
		ok                  bool
	}{
		{1, 16e-9, 20e-9, 22e-9, true},
		{2, 16e-9, 20e-9, 22e-9, true},
		{4, 13e-9, 17e-9, 20.5e-9, true},
		{16, 9e-9, 13e-9, 18.5e-9, true},
		{32, 8e-9, 12e-9, 18e-9, true},
		{33, 0, 0, 0, false},
		{64, 0, 0, 0, false},
		{math.NaN(), 0, 0, 0, false},
	} {
		cn, sc, pt, ok := m.FewBucketsAt(c.b)
		if ok != c.ok || math.Abs(cn-c.count) > 1e-15 || math.Abs(sc-c.scatter) > 1e-15 || math.Abs(pt-c.put) > 1e-15 {
			t.Errorf("FewBucketsAt(%g) = %g, %g, %g, %v; want %g, %g, %g, %v", c.b, cn, sc, pt, ok, c.count, c.scatter, c.put, c.ok)
		}
	}
	if _, _, _, ok := (machine.Machine{}).FewBucketsAt(2); ok {
		t.Error("a machine without a curve reads one")
	}
	// A curve without put reads put as 0.
	noPut := machine.Machine{FewBuckets: []machine.FewPoint{{Buckets: 2, Count: 16e-9, Scatter: 20e-9}, {Buckets: 32, Count: 8e-9, Scatter: 12e-9}}}
	if _, _, pt, ok := noPut.FewBucketsAt(4); !ok || pt != 0 {
		t.Errorf("no put: %g, %v; want 0, true", pt, ok)
	}
}

func TestValidateFewBuckets(t *testing.T) {
	bad := func(edit func(ps []machine.FewPoint)) []machine.FewPoint {
		ps := append([]machine.FewPoint(nil), fewCurve...)
		edit(ps)
		return ps
	}
	for _, c := range []struct {
		name, field string
		ps          []machine.FewPoint
	}{
		{"one point", "few_buckets", fewCurve[:1]},
		{"too many", "few_buckets", make([]machine.FewPoint, machine.MaxFewPoints+1)},
		{"out of order", "few_buckets[2].buckets", bad(func(ps []machine.FewPoint) { ps[2].Buckets = 4 })},
		{"no buckets", "few_buckets[0].buckets", bad(func(ps []machine.FewPoint) { ps[0].Buckets = 0 })},
		{"the curve's 64", "few_buckets[2].buckets", bad(func(ps []machine.FewPoint) { ps[2].Buckets = machine.CurveBuckets })},
		{"zero count", "few_buckets[1].count", bad(func(ps []machine.FewPoint) { ps[1].Count = 0 })},
		{"NaN scatter", "few_buckets[0].scatter", bad(func(ps []machine.FewPoint) { ps[0].Scatter = math.NaN() })},
		{"negative put", "few_buckets[1].put", bad(func(ps []machine.FewPoint) { ps[1].Put = -1e-9 })},
		{"a second a line", "few_buckets[2].scatter", bad(func(ps []machine.FewPoint) { ps[2].Scatter = 1 })},
	} {
		if es := machine.ValidateFewBuckets(c.ps); es.Field(c.field) == "" {
			t.Errorf("%s: errors %v; want one for %s", c.name, es, c.field)
		}
	}
	if es := machine.ValidateFewBuckets(fewCurve); len(es) > 0 {
		t.Errorf("a good curve: %v", es)
	}
}

// A machine file's few-bucket curve reads in seconds or with units,
// survives the file written back, and a bad point is named.
func TestParseFewBuckets(t *testing.T) {
	const six = `{"name": "R", "beta1": "10 GB/s", "beta2": "2 GB/s", "mu1": 2, "cache": "1 MiB", "line": 64, "mispredict": "5 ns", `
	m, err := machine.ParseJSON([]byte(six + `"few_buckets": [{"buckets": 2, "count": 1.6e-8, "scatter": "20 ns", "put": "22 ns"}, {"buckets": "32", "count": "8 ns", "scatter": 1.2e-8}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []machine.FewPoint{{Buckets: 2, Count: 16e-9, Scatter: 20e-9, Put: 22e-9}, {Buckets: 32, Count: 8e-9, Scatter: 12e-9}}
	same := func(a, b machine.FewPoint) bool {
		near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Abs(y) }
		return a.Buckets == b.Buckets && near(a.Count, b.Count) && near(a.Scatter, b.Scatter) && near(a.Put, b.Put)
	}
	if len(m.FewBuckets) != 2 || !same(m.FewBuckets[0], want[0]) || !same(m.FewBuckets[1], want[1]) {
		t.Errorf("curve %+v, want %+v", m.FewBuckets, want)
	}
	back, err := machine.ParseJSON(m.JSON())
	if err != nil || !back.SameParameters(m) {
		t.Errorf("written back: %+v, %v", back.FewBuckets, err)
	}
	for _, c := range []struct{ body, field string }{
		{`"few_buckets": [{"buckets": 2.5, "count": "8 ns", "scatter": "9 ns"}, {"buckets": 8, "count": "8 ns", "scatter": "9 ns"}]}`, "few_buckets[0].buckets"},
		{`"few_buckets": [{"buckets": 2, "count": "slow", "scatter": "9 ns"}, {"buckets": 8, "count": "8 ns", "scatter": "9 ns"}]}`, "few_buckets[0].count"},
		{`"few_buckets": [{"buckets": 8, "count": "8 ns", "scatter": "9 ns"}, {"buckets": 2, "count": "8 ns", "scatter": "9 ns"}]}`, "few_buckets[1].buckets"},
		{`"few_buckets": [{"buckets": 64, "count": "8 ns", "scatter": "9 ns"}, {"buckets": 2, "count": "8 ns", "scatter": "9 ns"}]}`, "few_buckets[0].buckets"},
	} {
		_, err := machine.ParseJSON([]byte(six + c.body))
		es, ok := err.(machine.Errors)
		if !ok || es.Field(c.field) == "" {
			t.Errorf("%s: error %v; want one for %s", c.body, err, c.field)
		}
	}
}
