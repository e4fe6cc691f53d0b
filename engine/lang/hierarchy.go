package lang

import (
	"memwall/engine/hier"
	"memwall/engine/machine"
)

// Hierarchy is a run's time by the hierarchy simulator (engine/hier), for
// a machine that gives its cache levels: the same accesses, in the same
// order, through every level, each level's fills and write-backs charged
// at its own bandwidths, the last level's dependent random fills at the
// memory's latency, plus the run's mispredictions at m. It is an
// estimate, not a bound.
//
// A program's own operations are not counted, so no compute time is
// charged: the time is that of the memory traffic and the branches, and
// the note says so when the machine has a compute rate that a count of
// operations would have used.
type Hierarchy struct {
	Levels []hier.LevelResult `json:"levels"`
	// Memory is the levels' time; Branch the mispredictions at m.
	Memory         float64 `json:"memory_seconds"`
	Mispredictions int64   `json:"mispredictions"`
	Branch         float64 `json:"branch_seconds"`
	Seconds        float64 `json:"seconds"`
	// Dependent counts the accesses simulated as dependent.
	Dependent int64  `json:"dependent_accesses"`
	Note      string `json:"note,omitempty"`
}

// noComputeNote says what the hierarchy time leaves out.
const noComputeNote = "no compute time: a program's operations are not counted, so the time is its memory traffic and branches"

// newHierarchy is the hierarchy simulator for a run on m, or nil when m
// gives no cache levels (the MBRAM model's one cache is then all there is).
func newHierarchy(m machine.Machine) (*hier.Sim, error) {
	if len(m.Levels) == 0 {
		return nil, nil
	}
	c := hier.ConfigFor(m)
	// The program's operations are not counted (see Hierarchy).
	c.ComputeRate = 0
	return hier.New(c)
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
func (rt *runtime) hierarchy(m machine.Machine, mispredictions int64) *Hierarchy {
	r := rt.h.Result()
	h := &Hierarchy{Levels: r.Levels, Memory: r.Seconds, Mispredictions: mispredictions, Dependent: r.Dependent}
	h.Branch = float64(mispredictions) * m.M
	h.Seconds = h.Memory + h.Branch
	if m.ComputeRate > 0 || len(m.CoreRates) > 0 {
		h.Note = noComputeNote
	}
	return h
}
