package measure

import (
	"context"
	"fmt"
	"math"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Memory speed method: HostSpeed times a loop in the first level, which
// a neighbour on the core's other thread slows; a neighbour's memory
// traffic slows memory instead, and that loop does not see it. In a busy
// spell of the Zen 5 guest's host (docs/hierarchy.md) validate's rows
// past the last cache ran 5 to 30 % over the same rows timed twenty
// minutes before (the permutation product of 2^24 elements in 117
// against 90 ms), while the loop in L1 read its calibrated rate within
// 1 %. So validate also times the gather of the machine's gather curve,
// s += a[idx[i]], over memory's point, and sets it beside the curve's
// value there.

// maxMemorySpeedSpan caps the array validate allocates for the check.
const maxMemorySpeedSpan = 256 << 20

// memorySpeedReads is a check's reads a sample, as calibration's gather
// reads each span: some 15 ms past the cache on the Zen 5 guest.
const memorySpeedReads = 1 << 21

// MemorySpeedSpan is the span, in bytes, over which MemorySpeed times
// m's memory: memory's point (machine.MemoryPoint, eight times the last
// cache), or the gather curve's last span or maxMemorySpeedSpan where
// those are smaller. It is 0 where m has no gather curve, or where that
// span is not twice the last cache, where the time still follows the
// share of the cache the machine gets.
func MemorySpeedSpan(m machine.Machine) int64 {
	n := len(m.GatherCurve)
	if n < 2 || m.C <= 0 {
		return 0
	}
	span := min(int64(machine.MemoryPoint(m.C)), m.GatherCurve[n-1].Span, maxMemorySpeedSpan)
	if span < 2*m.C {
		return 0
	}
	return span &^ 7
}

// MemorySpeed times reps samples of independent reads by index over the
// first MemorySpeedSpan(m) bytes of buf and returns m's gather curve
// there over the fastest sample: 1 when memory serves the reads as fast
// as when m was calibrated, under 1 when slower. It is an error when m
// gives no span, or buf is shorter than the span.
func MemorySpeed(ctx context.Context, m machine.Machine, buf []uint64, reps int) (float64, error) {
	span := MemorySpeedSpan(m)
	if span == 0 {
		return 0, fmt.Errorf("memory speed: the machine has no gather curve past twice its last cache")
	}
	if int64(len(buf))*8 < span {
		return 0, fmt.Errorf("memory speed: a buffer of %s is shorter than the span, %s", units.FormatSize(int64(len(buf))*8), units.FormatSize(span))
	}
	want, ok := m.GatherAt(float64(span))
	if !ok || !(want > 0) {
		return 0, fmt.Errorf("memory speed: the gather curve gives no time at %s", units.FormatSize(span))
	}
	idx, runs := gatherIndex(make([]uint32, memorySpeedReads), span, m.C)
	fastest := math.Inf(1)
	for r := range max(1, reps) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fastest = math.Min(fastest, gatherAt(buf, span, idx, runs, uint64(r+1)))
	}
	if !(fastest > 0) {
		return 0, fmt.Errorf("memory speed: the clock resolved no sample")
	}
	return want / fastest, nil
}
