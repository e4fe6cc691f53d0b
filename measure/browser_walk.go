package measure

import (
	"context"
	"fmt"
	"math/bits"

	"memwall/engine/hier"
	"memwall/engine/machine"
)

// The heap walk in a browser (walk.go says what it measures): the same
// walks and chase as Calibrate's, cut into steps that each hold the page
// for a fraction of a second, on a heap of at most browserWalkMax bytes
// in the first half of the buffer and the chase's cycle in the second.
// Eight times a laptop's last cache is more than a page's buffer holds:
// the walk runs when the heap is at least browserWalkReach times it, and
// the machine keeps log2(B/w) lines in flight otherwise. The first
// level's step is the model's, at heapsort's core rate: a batch of walks
// there takes some tens of microseconds, under a page's clock's step.

// browserWalkMax bounds the heap, and so the chase's cycle: building a
// cycle of 256 MiB held a page for one to three seconds (latencyMax), and
// the heap's build costs about as much as the cycle's.
const browserWalkMax = 64 << 20

// browserWalkBuildParts is how many steps build the heap.
const browserWalkBuildParts = 4

// browserWalk is the walk's state between steps; a nil heap skips it (no
// levels, or no heap far enough past the last cache in the buffer).
type browserWalk struct {
	heap    []uint32
	chain   []uint64
	at, x   uint64
	perWalk []float64
	lat     []float64
}

// planWalk adds the walk's steps: sizing and filling the heap, building
// it in parts, the chase's cycle, then its rounds.
func (s *Steps) planWalk() {
	rounds := s.tpRounds
	s.add("heap walk, filling the heap", func(context.Context) error { s.walkSetup(); return nil })
	for p := range browserWalkBuildParts {
		s.add(fmt.Sprintf("heap walk, building the heap, part %d of %d", p+1, browserWalkBuildParts), func(context.Context) error {
			s.walk.build(p)
			return nil
		})
	}
	s.add("heap walk, the chase's cycle", func(context.Context) error { s.walk.cycle(); return nil })
	for r := range rounds {
		s.add(fmt.Sprintf("heap walk, round %d of %d", r+1, rounds), func(ctx context.Context) error { return s.walk.round(ctx, s.o.Short) })
	}
}

// walkSetup sizes the heap from the levels the curves gave and fills it.
func (s *Steps) walkSetup() {
	res, err := s.measured()
	if err != nil || len(res.Machine.Levels) == 0 {
		return
	}
	s.walk.setup(s.buf, res.Machine.C)
}

// browserWalkReach is how many times the last cache the heap must be:
// nearer the cache a walk's lines cost more than the form's cut between
// cached and missed depths says, and read as fewer in flight. On the AMD
// guest (a last cache of 13.5 MiB), heaps of 32, 64 and 128 MiB read
// 1.33, 1.92 and 2.37 lines in flight.
const browserWalkReach = 4

// setup takes the heap from the front of buf, as large as half of it and
// browserWalkMax allow, and the chase's cycle from its end, and fills the
// heap; it skips the walk when the heap is under browserWalkReach times
// the last cache c.
func (w *browserWalk) setup(buf []uint64, c int64) {
	keys := asKeys(buf)
	n := walkLargeHeap(c, min(len(keys)/2, browserWalkMax/4))
	if int64(n)*4 < browserWalkReach*c {
		return
	}
	w.heap = keys[:n]
	w.chain = buf[len(buf)-n/2:] // n·4 bytes at the other end
	w.x = 0x9E3779B97F4A7C15
	fillKeys(w.heap, 7)
}

// build is part p of the heap's build: the bottom-up sift-downs, from the
// last parent to the root, cut in browserWalkBuildParts.
func (w *browserWalk) build(p int) {
	parents := len(w.heap) / 2
	siftParents(w.heap, parents-(p+1)*parents/browserWalkBuildParts, parents-p*parents/browserWalkBuildParts)
}

// cycle builds the chase's cycle and runs it round once.
func (w *browserWalk) cycle() {
	if w.heap != nil {
		w.at = startChase(w.chain)
	}
}

// round is one round of walkRounds: the walks and the chase.
func (w *browserWalk) round(ctx context.Context, short bool) error {
	if w.heap == nil {
		return nil
	}
	walks := walkWalks
	if short {
		walks /= 4
	}
	pw, _, lat := walkRound(w.heap, nil, w.chain, walks, &w.at, &w.x)
	w.perWalk = append(w.perWalk, pw)
	w.lat = append(w.lat, lat)
	return ctx.Err()
}

// result is the walk's measurement on m, whose core rates give the step
// (a batch of walks in the first level takes some tens of microseconds,
// under a page's clock's step), and false when it did not run or m has
// no rate.
func (w *browserWalk) result(m machine.Machine) (WalkResult, bool) {
	step := hier.HeapStepSeconds(m)
	if len(w.perWalk) == 0 || !(step > 0) {
		return WalkResult{}, false
	}
	return WalkResult{Keys: len(w.heap), Steps: bits.Len(uint(len(w.heap))) - 1, PerWalk: Summarize(w.perWalk),
		PerStep: Summarize([]float64{step}), StepFromRate: true, MemLatency: Summarize(w.lat)}, true
}
