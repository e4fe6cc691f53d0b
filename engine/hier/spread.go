package hier

import (
	"math"

	"memwall/engine/machine"
)

// Address translation of reads spread at random over an array.
//
// Calibration reads each level's random fill cost off the random-read
// curve at one array size, the level's plateau point
// (machine.PlateauPoints; memory at machine.MemoryPoint), so a level's
// β2 holds the page walks of random reads across that many bytes. A
// kernel's random reads across another span wait for the walks of that
// span: the two-pass product's phase II reads within a block of half the
// last cache, past the translation buffer's reach, where the last level's
// hits were measured at a quarter of the cache or less. Each read that
// hits level j (with the chance that its line is held there and not in
// the levels above, as for the levels' own counts) is charged the walk at
// its span in place of the walk at level j's point: the difference, more
// where the span is the wider, less where it is the narrower. The sum is
// held at zero or more: the reads are never charged less than the levels
// charge them.
//
// On the development guest (a third level of 10 MiB, the last of 222 to
// 234 MiB, the buffer's reach 8.4 MiB) the permutation product from 2^22
// to 2^26 keys ran at 0.94 to 1.39 of the levels' prediction (reads across
// 16 to 256 MiB charged the walks of 46 MiB, or of 4 MiB where they hit the
// third level); with the difference, at 0.84 to 1.05.
//
// The walk of a random read is the curve's walk (machine.WalkAt, a cycle
// of reads one to a page, each of which misses the buffer past its reach)
// times the share of reads that miss the buffer: 1 − reach/span for reads
// spread evenly over span bytes (machine.WalkReach).

// spreadTranslation is the seconds that address translation adds to
// reads spread at random over span bytes beyond what the levels charge them;
// 0 on a machine without page walks in its curve.
func spreadTranslation(m machine.Machine, levels []machine.Level, reads, span float64) float64 {
	if reads <= 0 || span <= 0 || len(levels) == 0 {
		return 0
	}
	reach := m.WalkReach()
	at := randomWalk(m, reach, span)
	if at <= 0 {
		return 0
	}
	sizes := machine.LevelSizes(levels)
	points := machine.PlateauPoints(sizes)
	var per, above float64
	for j, l := range levels {
		held := math.Min(1, float64(l.Size)/span)
		per += (held - above) * (at - randomWalk(m, reach, points[j]))
		above = held
	}
	per += (1 - above) * (at - randomWalk(m, reach, machine.MemoryPoint(sizes[len(sizes)-1])))
	return reads * math.Max(0, per)
}

// randomWalk is the seconds address translation adds to a read at a
// random place in span bytes: the walk of a read that misses the
// translation buffer, for the share of the span past its reach
// (m.WalkReach, which the caller reads once for all its spans).
func randomWalk(m machine.Machine, reach, span float64) float64 {
	if reach <= 0 || span <= reach {
		return 0
	}
	return m.WalkAt(span) * (1 - reach/span)
}
