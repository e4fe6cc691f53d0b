package measure

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// setGatherBeta2 by hand: an L3 of 12 MiB, the gather at 2 ns a read
// over 3 MiB and 7.5 ns over 96 MiB, where the L3 holds an eighth:
// memory's read (7.5 − 2/8)/(7/8) = 8.2857 ns, the step 6.2857 ns, so
// 64 B / 6.2857 ns = 10.18 GB/s, faster than the curve's 5 GB/s: the
// L3's β2 becomes 10.2 GB/s (three digits). At 14 ns over 96 MiB the step
// is 13.714 ns, 4.67 GB/s, slower: the curve's stays, and the note says
// so. Below the plateau's time there is no step: nothing changes.
func TestSetGatherBeta2(t *testing.T) {
	base := func() machine.Machine {
		m := machine.Machine{Beta1: 20e9, Beta2: 5e9, Mu1: 2, M: 5e-9, Spread: map[string]float64{}, Notes: map[string]string{}}
		return m.WithLevels([]machine.Level{
			{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
			{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 100e9, Beta2: 50e9},
			{Name: "L3", Size: 12 << 20, Line: 64, Beta1: 30e9, Beta2: 5e9},
		})
	}
	g := func(tp, ts float64) GatherResult {
		return GatherResult{CacheSize: 3 << 20, MemSize: 96 << 20,
			Cache: Summarize([]float64{tp, tp * 1.1, tp}), Mem: Summarize([]float64{ts, ts * 1.2, ts})}
	}
	m := base()
	setGatherBeta2(&m, g(2e-9, 7.5e-9))
	if got := m.Levels[2].Beta2; math.Abs(got-10.2e9) > 1 {
		t.Errorf("β2 %g, want 10.2 GB/s", got)
	}
	if !(m.Spread["levels[2].beta2"] > 0) || !strings.Contains(m.Notes[GatherNote], "L3's β2") {
		t.Errorf("spread %g, note %q", m.Spread["levels[2].beta2"], m.Notes[GatherNote])
	}
	if m.Levels[1].Beta2 != 50e9 || m.Beta2 != 5e9 {
		t.Errorf("the gather moved another β2: L2 %g, the paper's %g", m.Levels[1].Beta2, m.Beta2)
	}
	m = base()
	setGatherBeta2(&m, g(2e-9, 14e-9))
	if m.Levels[2].Beta2 != 5e9 || !strings.Contains(m.Notes[GatherNote], "no faster") {
		t.Errorf("a slower gather: β2 %g, note %q", m.Levels[2].Beta2, m.Notes[GatherNote])
	}
	m = base()
	setGatherBeta2(&m, g(2e-9, 1.9e-9))
	if m.Levels[2].Beta2 != 5e9 || m.Notes[GatherNote] != "" {
		t.Errorf("no step: β2 %g, note %q", m.Levels[2].Beta2, m.Notes[GatherNote])
	}
}

// gatherRounds reads over both points and the curve's spans, and refuses
// a memory point past the buffer. A last cache of 256 KiB in a buffer of
// 2 MiB: the curve at 256, 320, 384, 448 and 512 KiB, 1 MiB and 2 MiB
// (1 to 2 times it by quarters, 4 and 8 times; 16 and 32 times do not
// fit), memory's point, 2 MiB, among them.
func TestGatherRounds(t *testing.T) {
	buf := make([]uint64, 1<<18) // 2 MiB
	for i := range buf {
		buf[i] = uint64(i)
	}
	r, err := gatherRounds(context.Background(), buf, 64<<10, 2<<20, 256<<10, 0, 1<<14, 2)
	if err != nil || r.CacheSize != 64<<10 || r.MemSize != 2<<20 || len(r.Cache.Samples) != 2 || len(r.Mem.Samples) != 2 || !(r.Cache.Min > 0) || !(r.Mem.Min > 0) {
		t.Fatalf("%+v, %v", r, err)
	}
	var spans []int64
	for _, c := range r.Curve {
		spans = append(spans, c.Span)
		if len(c.Read.Samples) != 2 || !(c.Read.Min > 0) {
			t.Errorf("span %d: %+v", c.Span, c.Read)
		}
	}
	if !slices.Equal(spans, []int64{256 << 10, 320 << 10, 384 << 10, 448 << 10, 512 << 10, 1 << 20, 2 << 20}) || r.Curve[6].Read.Min != r.Mem.Min {
		t.Errorf("curve spans %v (memory's point %g, the curve's last %+v)", spans, r.Mem.Min, r.Curve[len(r.Curve)-1])
	}
	// Memory's point off the multiples still among them, in order.
	if got := gatherSpans(10<<20, 100<<20, 1<<30, 0); !slices.Equal(got, []int64{10 << 20, 25 << 19, 15 << 20, 35 << 19, 20 << 20, 40 << 20, 80 << 20, 100 << 20, 160 << 20, 320 << 20}) {
		t.Errorf("gatherSpans(10 MiB, 100 MiB, 1 GiB) = %v", got)
	}
	// Below the last cache: its 4096th to its half, those no smaller
	// than the first level (1 MiB here: 16 MiB/16 is the first).
	if got := gatherSpans(16<<20, 128<<20, 1<<30, 1<<20); !slices.Equal(got, []int64{1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20, 20 << 20, 24 << 20, 28 << 20, 32 << 20, 64 << 20, 128 << 20, 256 << 20, 512 << 20}) {
		t.Errorf("gatherSpans(16 MiB, 128 MiB, 1 GiB, from 1 MiB) = %v", got)
	}
	// From 3 MiB: the first level's size itself, then the halves past it.
	if got := gatherSpans(16<<20, 128<<20, 1<<30, 3<<20); !slices.Equal(got[:4], []int64{3 << 20, 4 << 20, 8 << 20, 16 << 20}) {
		t.Errorf("gatherSpans(16 MiB, 128 MiB, 1 GiB, from 3 MiB) = %v", got)
	}
	// From 32 KiB: twelve halvings of 128 MiB reach it, and it is there
	// once.
	if got := gatherSpans(128<<20, 1<<30, 1<<30, 32<<10); len(got) != 12+7 || got[0] != 32<<10 || got[11] != 64<<20 {
		t.Errorf("gatherSpans(128 MiB, 1 GiB, 1 GiB, from 32 KiB) = %v", got)
	}
	// From 1 KiB: that span, then no more than twelve halvings.
	if got := gatherSpans(128<<20, 1<<30, 1<<30, 1<<10); got[0] != 1<<10 || got[1] != 32<<10 || len(got) > maxGatherSpans {
		t.Errorf("gatherSpans(128 MiB, 1 GiB, 1 GiB, from 1 KiB) = %v, want 1 KiB, then 32 KiB (twelve halvings), at most %d spans", got, maxGatherSpans)
	}
	// Wherever the halves of the last cache fall against the first level,
	// the curve starts at the first level: two calibrations a minute
	// apart (L1 48.25 and 47.19 KiB, a share of L3 of 11.15 and 12.24
	// MiB) began theirs at 89 and 49 KiB, and only the second priced the
	// product with Y of 64 KiB by it.
	for _, m := range []struct{ l1, c int64 }{{49408, 11691622}, {48323, 12834570}} {
		if got := gatherSpans(m.c, 8*m.c, 1<<30, m.l1); got[0] != m.l1 || got[1] <= m.l1 || got[1] > 2*m.l1 {
			t.Errorf("gatherSpans(%d, from %d) starts %v, want the first level, then a half of the cache within twice it", m.c, m.l1, got[:2])
		}
	}
	if _, err := gatherRounds(context.Background(), buf, 64<<10, 4<<20, 256<<10, 0, 1<<14, 2); err == nil {
		t.Error("a memory point past the buffer: no error")
	}
	idx := make([]uint32, 1000)
	fillIndices(idx, 37, 5)
	for _, i := range idx {
		if i >= 37 {
			t.Fatalf("index %d past 37", i)
		}
	}
}

// setGatherCurve takes each span's fastest round and the median of the
// spans' spreads (0.02, 0.04, 0.10: 0.04), and sets nothing from one
// span or a span the clock did not resolve.
func TestSetGatherCurve(t *testing.T) {
	span := func(s int64, min, spread float64) GatherSpan {
		return GatherSpan{Span: s, Read: Stat{Min: min, Median: min * 1.1, Spread: spread}}
	}
	g := GatherResult{Curve: []GatherSpan{span(32<<20, 3.7912e-9, 0.02), span(64<<20, 5.4449e-9, 0.10), span(128<<20, 7.39e-9, 0.04)}}
	var m machine.Machine
	setGatherCurve(&m, g)
	want := []machine.GatherPoint{{Span: 32 << 20, Read: 3.79e-9}, {Span: 64 << 20, Read: 5.44e-9}, {Span: 128 << 20, Read: 7.39e-9}}
	if len(m.GatherCurve) != 3 || m.Spread["gather_curve"] != 0.04 {
		t.Fatalf("curve %+v, spread %g", m.GatherCurve, m.Spread["gather_curve"])
	}
	for i, p := range m.GatherCurve {
		if p.Span != want[i].Span || math.Abs(p.Read-want[i].Read) > 1e-20 {
			t.Errorf("point %d = %+v, want %+v", i, p, want[i])
		}
	}
	for _, bad := range []GatherResult{{Curve: g.Curve[:1]}, {Curve: []GatherSpan{span(32<<20, 0, 0), span(64<<20, 5e-9, 0)}}} {
		var o machine.Machine
		if setGatherCurve(&o, bad); o.GatherCurve != nil {
			t.Errorf("%+v set %+v", bad, o.GatherCurve)
		}
	}
}

// gatherFrom is the first level's size, 0 with one level;
// gatherIndex keeps a span below the last cache to an index array as
// many bytes as the span, run over as often as the long array's reads
// take, and streams the long array once from the cache's size on.
func TestGatherIndex(t *testing.T) {
	levels := []machine.Level{{Size: 48 << 10}, {Size: 1 << 20}, {Size: 32 << 20}}
	if got := gatherFrom(levels); got != 48<<10 {
		t.Errorf("gatherFrom(3 levels) = %d, want 48 KiB", got)
	}
	if got := gatherFrom(levels[:1]); got != 0 {
		t.Errorf("gatherFrom(1 level) = %d, want 0", got)
	}
	long := make([]uint32, 1<<20)
	for _, c := range []struct {
		span, c int64
		n, reps int
	}{
		{1 << 20, 32 << 20, 1 << 18, 4},  // 2^18 indices of 4 B: 1 MiB
		{3 << 20, 32 << 20, 3 << 18, 1},  // 3 MiB: 786432 indices, one run
		{8 << 20, 32 << 20, 1 << 20, 1},  // more than long holds: long once
		{32 << 20, 32 << 20, 1 << 20, 1}, // the cache's size: long once
		{64 << 20, 32 << 20, 1 << 20, 1}, // beyond it: long once
		{4, 32 << 20, 2, 1 << 19},        // the least: two indices
	} {
		idx, reps := gatherIndex(long, c.span, c.c)
		if len(idx) != c.n || reps != c.reps {
			t.Errorf("gatherIndex(span %d, cache %d) = %d indices × %d, want %d × %d", c.span, c.c, len(idx), reps, c.n, c.reps)
		}
	}
}
