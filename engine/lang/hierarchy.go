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
// The run also counts its operations, as the hierarchy model counts a
// kernel's (engine/hier's Work): every arithmetic, logic and comparison
// operator evaluated, every array element read or written, and for each
// condition its test and its branch. The simulator charges them at the
// machine's compute rate (its median core rate, for programs that are
// none of the kernels), beside the levels and the mispredictions.

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

// operations is the run's operations so far (see above): the operators
// counted as they ran, the accesses and two for each condition
// evaluated.
func (rt *runtime) operations() int64 {
	n := rt.ops
	for _, a := range rt.access {
		n += a.n
	}
	for _, b := range rt.branch {
		n += 2 * b.n
	}
	return n
}

// hierarchy is the run's hierarchy time, after Finish.
func (rt *runtime) hierarchy(m machine.Machine, mispredictions int64) *hier.Result {
	r := rt.h.RunResult(mispredictions, m.M)
	return &r
}
