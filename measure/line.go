package measure

import (
	"context"
	"math"
)

// Line-size method: 1024 slots of 1 KiB each, visited in a random cyclic
// order by a dependent chase. Each slot holds a node at a random line of its
// first 704 bytes (so the nodes spread over all cache sets rather than the
// few that a 1 KiB stride would hit). At each node the loop loads the
// node's first word (the link to the next node) and then the word d bytes
// further on,
// whose address depends on the first load (the word holds 0 and is added to
// the link), so the two loads cannot overlap. When d is below the line size
// B both words share a line and the second load hits L1; from d = B on it is
// a second miss. The nodes' lines (at most 2 × 64 KiB) overflow L1 but fit
// in L2, so a miss costs an L2 access and the run stays short. B is the
// offset d at which the time per node jumps the most (d = 8, 16, …, 256),
// measured in
// rounds over all d so that a burst of noise hits every d alike.

const (
	lineSlots    = 1024
	lineSlotSize = 1024
	lineMaxD     = 256
)

func lineChase(mem []uint64, start uint64, steps int, dw uint64) uint64 {
	p := start
	for i := 0; i < steps; i++ {
		q := mem[p]
		p = q + mem[q+dw]
	}
	return p
}

// LinePoint is the time per slot for one offset d.
type LinePoint struct {
	Offset int64 `json:"offset"`
	Time   Stat  `json:"time"`
}

// LineSize measures the line size of the first cache level that misses.
func LineSize(ctx context.Context, steps, rounds int) (int64, []LinePoint, error) {
	const w = lineSlotSize / 8
	mem := make([]uint64, lineSlots*w)
	mx := newMixer(lineSlots, 7)
	var order []uint64
	for i := uint64(0); i <= mx.mask; i++ {
		if v := mx.mix(i); v < lineSlots {
			off := (mx.mix(i+lineSlots) % ((lineSlotSize - lineMaxD - 64) / 64)) * 8
			order = append(order, v*w+off)
		}
	}
	for i, v := range order {
		mem[v] = order[(i+1)%len(order)] // other words stay 0
	}
	var offs []int64
	for d := int64(8); d <= lineMaxD; d *= 2 {
		offs = append(offs, d)
	}
	samples := make([][]float64, len(offs))
	p := order[0]
	for r := 0; r <= rounds; r++ {
		for i, d := range offs {
			secs, err := repeat(ctx, 1, func() { p = lineChase(mem, p, steps, uint64(d/8)) })
			if err != nil {
				return 0, nil, err
			}
			if r > 0 { // round 0 is warm-up
				samples[i] = append(samples[i], secs[0]/float64(steps))
			}
		}
	}
	sink += p
	pts := make([]LinePoint, len(offs))
	for i := range offs {
		pts[i] = LinePoint{Offset: offs[i], Time: Summarize(samples[i])}
	}
	return lineFromPoints(pts), pts, nil
}

// lineFromPoints is the line size the offset test's points show: the
// offset whose fastest round is the most above the fastest round of the
// offset before, 0 when no jump reaches 1.2 times (no clear step: the
// caller falls back on the OS's value or 64 bytes). The native and the
// browser calibrations both decide with it.
//
// The fastest round, not the median: other work on the machine only ever
// slows a round down, and a loaded 2-core machine slows some rounds by 10x;
// a median of two or three rounds then moves the jump to a wrong offset
// (a browser's short run on a busy host read 256 B lines that way, and
// with them a random-read bandwidth four times too high).
func lineFromPoints(pts []LinePoint) int64 {
	bestJump, b := 0.0, int64(0)
	for i := 1; i < len(pts); i++ {
		if prev := pts[i-1].Time.Min; prev > 0 {
			if j := pts[i].Time.Min / prev; j > bestJump {
				bestJump, b = j, pts[i].Offset
			}
		}
	}
	if bestJump < 1.2 || math.IsNaN(bestJump) {
		return 0
	}
	return b
}
