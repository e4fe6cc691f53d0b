package lang

import (
	"memwall/engine/hier"
	"memwall/engine/machine"
)

// A run on a machine that gives its cache levels goes through the
// hierarchy simulator (engine/hier) as well: the same accesses, in the
// same order, through every level, each level's fills and write-backs
// charged at its own bandwidths, the last level's dependent random fills
// at the memory's latency, plus the run's mispredictions at m
// (Result.Hierarchy). It is an estimate, not a bound.
//
// A program's own operations are not counted, so no compute time is
// charged: the time is that of the memory traffic and the branches, and
// the result's note says so when the machine has a compute rate that a
// count of operations would have used.

// newHierarchy is the hierarchy simulator for a run on m, or nil when m
// gives no cache levels (the MBRAM model's one cache is then all there is).
func newHierarchy(m machine.Machine) (*hier.Sim, error) {
	if len(m.Levels) == 0 {
		return nil, nil
	}
	return hier.New(hier.ConfigFor(m))
}

// feed simulates the buffered accesses through the hierarchy: each as
// hier.Batch takes it, the word's address with the write and dependent
// flags in its two low bits (lines are at least 4 bytes, so those bits
// never change the line).
func (rt *runtime) feed() {
	ops := rt.hops[:0]
	for k, op := range rt.buf {
		f := uint64(0)
		if op&writeFlag != 0 {
			f |= hier.WriteBit
		}
		if rt.bufSite[k].dependent {
			f |= hier.DepBit
		}
		ops = append(ops, op&^writeFlag&^(hier.WriteBit|hier.DepBit)|f)
	}
	rt.h.Batch(ops)
	rt.hops = ops
}

// hierarchy is the run's hierarchy time, after Finish.
func (rt *runtime) hierarchy(m machine.Machine, mispredictions int64) *hier.Result {
	r := rt.h.RunResult(mispredictions, m.M)
	return &r
}
