package measure

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"memwall/engine/machine"
)

// TestFewAt: one round times the three loops into each of fewBuckets'
// counts, a positive and finite time a line each; a buffer too small
// for the keys is refused by name, and a cancelled context stops it.
func TestFewAt(t *testing.T) {
	buf := make([]uint64, fewKeys) // two arrays of fewKeys 4-byte keys
	s, err := fewAt(context.Background(), buf, 64, 7, distGroups, fewBuckets)
	if err != nil {
		t.Fatal(err)
	}
	for _, xs := range [][]float64{s.count, s.scatter, s.put} {
		if len(xs) != len(fewBuckets) {
			t.Fatalf("%d times, want %d", len(xs), len(fewBuckets))
		}
		for _, x := range xs {
			if !(x > 0) || math.IsInf(x, 0) {
				t.Errorf("a time of %g s a line", x)
			}
		}
	}
	if _, err := fewAt(context.Background(), buf[:fewKeys/4], 64, 7, distGroups, fewBuckets); err == nil || !strings.Contains(err.Error(), "few-bucket") {
		t.Errorf("a small buffer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fewAt(ctx, buf, 64, 7, distGroups, fewBuckets); err == nil {
		t.Error("a cancelled context ran on")
	}
}

// TestSetFewBuckets: each bucket count's median round (rounds cut short
// left out), the spreads of the fewest buckets' loops (Summarize's, by hand: rounds of 15, 16 and
// 18 ns give a median of 16 and quartiles 15.5 and 17, a spread of
// 1.5/16 = 0.094), and a note; rounds that saw nothing leave the
// machine without a curve.
func TestSetFewBuckets(t *testing.T) {
	round := func(c2, c32 float64) fewSample {
		return fewSample{
			count:   []float64{c2, 12e-9, 10e-9, 9e-9, c32},
			scatter: []float64{20e-9, 16e-9, 14e-9, 13e-9, 12e-9},
			put:     []float64{22e-9, 20e-9, 19e-9, 18.5e-9, 18e-9},
		}
	}
	// A round timed a bucket count at a time (the browser's) adds up to
	// the same; one cut short is left out.
	var byParts fewSample
	for k := range fewBuckets {
		r := round(16e-9, 9e-9)
		byParts.add(fewSample{count: r.count[k : k+1], scatter: r.scatter[k : k+1], put: r.put[k : k+1]})
	}
	short := fewSample{count: []float64{1}, scatter: []float64{1}, put: []float64{1}}
	pts := fewPoints([]fewSample{round(15e-9, 8e-9), round(18e-9, 8e-9), byParts, short})
	m := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	setFewBuckets(&m, pts)
	want := []machine.FewPoint{
		{Buckets: 2, Count: 16e-9, Scatter: 20e-9, Put: 22e-9},
		{Buckets: 4, Count: 12e-9, Scatter: 16e-9, Put: 20e-9},
		{Buckets: 8, Count: 10e-9, Scatter: 14e-9, Put: 19e-9},
		{Buckets: 16, Count: 9e-9, Scatter: 13e-9, Put: 18.5e-9},
		{Buckets: 32, Count: 8e-9, Scatter: 12e-9, Put: 18e-9},
	}
	if len(m.FewBuckets) != len(want) {
		t.Fatalf("curve %+v, want %+v", m.FewBuckets, want)
	}
	for i, w := range want {
		g := m.FewBuckets[i]
		if g.Buckets != w.Buckets || !closeRel(g.Count, w.Count) || !closeRel(g.Scatter, w.Scatter) || !closeRel(g.Put, w.Put) {
			t.Errorf("point %d = %+v, want %+v", i, g, w)
		}
	}
	// A point above one of fewer buckets (a burst) is lowered to it:
	// the count into 16 at 12 ns after 10 into 8 reads 10, and 32 then
	// the least of the two, its own 8.
	burst := round(16e-9, 8e-9)
	burst.count[3] = 12e-9
	m2 := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	setFewBuckets(&m2, fewPoints([]fewSample{burst}))
	if got := m2.FewBuckets; len(got) != 5 || !closeRel(got[3].Count, 10e-9) || !closeRel(got[4].Count, 8e-9) || !closeRel(got[3].Scatter, 13e-9) {
		t.Errorf("a burst at 16 buckets: %+v", got)
	}
	if got, w := m.Spread["few_buckets.count"], round3(1.5/16); got != w {
		t.Errorf("few_buckets.count spread %v, want %v", got, w)
	}
	if m.Spread["few_buckets.scatter"] != 0 || m.Notes["few_buckets_method"] == "" {
		t.Errorf("spreads %v, notes %v", m.Spread, m.Notes)
	}
	if got := m.Validate(); got != nil && strings.Contains(got.Error(), "few_buckets") {
		t.Errorf("the curve fails its check: %v", got)
	}
	empty := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	setFewBuckets(&empty, fewPoints([]fewSample{{count: make([]float64, 5), scatter: make([]float64, 5), put: make([]float64, 5)}}))
	if empty.FewBuckets != nil {
		t.Errorf("rounds of nothing gave %+v", empty.FewBuckets)
	}
}

// TestRepTime: the body runs exactly reps times however the groups
// split them (3 groups of 10 calls: 4, 3 and 3), and the time is the
// fastest group's a call: a body that sleeps 2 ms on its first call
// only leaves the groups after the first at their calls' own time, so
// with groups the result is far below the 2 ms the first group's
// calls share; as one group it is the mean, at least 2 ms / 10.
func TestRepTime(t *testing.T) {
	for _, c := range []struct{ reps, groups int }{{10, 3}, {10, 1}, {1, 16}, {0, 4}, {5, 0}, {16, 16}} {
		calls := 0
		repTime(c.reps, c.groups, func() { calls++ })
		if want := max(1, c.reps); calls != want {
			t.Errorf("reps %d in %d groups: %d calls, want %d", c.reps, c.groups, calls, want)
		}
	}
	slowFirst := func() func() {
		first := true
		return func() {
			if first {
				first = false
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	if got := repTime(10, 1, slowFirst()); got < 2e-4 {
		t.Errorf("one group: %g s a call, want the mean, at least 0.2 ms", got)
	}
	if got := repTime(10, 5, slowFirst()); got >= 2e-4 {
		t.Errorf("five groups: %g s a call, want a group without the slow call", got)
	}
}
