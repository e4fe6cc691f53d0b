package measure

import (
	"context"
	"math"
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

// gatherRounds reads over both points and refuses a memory point past
// the buffer.
func TestGatherRounds(t *testing.T) {
	buf := make([]uint64, 1<<18) // 2 MiB
	for i := range buf {
		buf[i] = uint64(i)
	}
	r, err := gatherRounds(context.Background(), buf, 64<<10, 2<<20, 1<<14, 2)
	if err != nil || r.CacheSize != 64<<10 || r.MemSize != 2<<20 || len(r.Cache.Samples) != 2 || len(r.Mem.Samples) != 2 || !(r.Cache.Min > 0) || !(r.Mem.Min > 0) {
		t.Fatalf("%+v, %v", r, err)
	}
	if _, err := gatherRounds(context.Background(), buf, 64<<10, 4<<20, 1<<14, 2); err == nil {
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
