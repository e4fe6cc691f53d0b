package measure

import (
	"context"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// MemorySpeedSpan is memory's point, 8·C, within the gather curve and
// 256 MiB, and none where that is not past twice the cache (by hand).
func TestMemorySpeedSpan(t *testing.T) {
	const mib = 1 << 20
	curve := func(to int64) []machine.GatherPoint {
		return []machine.GatherPoint{{Span: 8 * mib, Read: 1e-9}, {Span: to, Read: 8e-9}}
	}
	for _, c := range []struct {
		name  string
		c     int64
		curve []machine.GatherPoint
		want  int64
	}{
		{"no curve", 16 * mib, nil, 0},
		{"memory's point", 14 * mib, curve(256 * mib), 112 * mib},
		{"the curve's end", 16 * mib, curve(64 * mib), 64 * mib},
		{"the cap", 64 * mib, curve(512 * mib), 256 * mib},
		{"the cap within twice the cache", 200 * mib, curve(2048 * mib), 0},
		{"the curve's end within twice the cache", 40 * mib, curve(64 * mib), 0},
	} {
		m := machine.Machine{C: c.c, GatherCurve: c.curve}
		if got := MemorySpeedSpan(m); got != c.want {
			t.Errorf("%s: %d B, want %d", c.name, got, c.want)
		}
	}
}

// MemorySpeed refuses a machine with no span to check and a buffer
// shorter than the span, naming what is missing; with both it times the
// gather and gives a positive, finite ratio.
func TestMemorySpeed(t *testing.T) {
	const mib = 1 << 20
	m := machine.Machine{C: mib, GatherCurve: []machine.GatherPoint{{Span: mib, Read: 1e-9}, {Span: 16 * mib, Read: 5e-9}}}
	if _, err := MemorySpeed(context.Background(), machine.Machine{C: mib}, make([]uint64, 1024), 1); err == nil || !strings.Contains(err.Error(), "gather curve") {
		t.Errorf("no curve: %v", err)
	}
	if _, err := MemorySpeed(context.Background(), m, make([]uint64, mib/8), 1); err == nil || !strings.Contains(err.Error(), "shorter than the span, 8 MiB") {
		t.Errorf("short buffer: %v", err)
	}
	got, err := MemorySpeed(context.Background(), m, make([]uint64, 8*mib/8), 2)
	if err != nil || !(got > 0) || got > 1e6 {
		t.Errorf("MemorySpeed = %g, %v", got, err)
	}
}
