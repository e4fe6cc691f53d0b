package kernels

import "memwall/engine/sim"

// Tracer receives a kernel's accesses besides the MBRAM simulator, in the
// same order: engine/hier's simulator of a cache hierarchy is one. Batch
// takes word addresses with bit 0 set for a write and bit 1 for a
// dependent read (engine/hier's WriteBit and DepBit).
type Tracer interface {
	Read(addr uint64)
	Write(addr uint64)
	ReadDependent(addr uint64)
	Batch(ops []uint64)
}

// traceDep is the dependent bit of a Tracer's Batch operation.
const traceDep = 2

// mem is where a kernel's accesses go: the MBRAM simulator, whose other
// methods (Branch, Phase, Config) the kernels call through it, and the
// tracer when there is one. With no tracer an access costs a compare and
// a call more than the simulator's own inlined fast path (the simulator's
// Read alone fills the inliner's budget): heapsort at 2^21 simulated in
// 4 to 6 % more time.
type mem struct {
	*sim.Sim
	t   Tracer
	ops []uint64 // a Batch as the tracer takes it
}

func (m *mem) Read(addr uint64) {
	m.Sim.Read(addr)
	if m.t != nil {
		m.t.Read(addr)
	}
}

func (m *mem) Write(addr uint64) {
	m.Sim.Write(addr)
	if m.t != nil {
		m.t.Write(addr)
	}
}

// ReadDependent is a read whose address came from the load before it
// (a walk down a heap): the MBRAM simulator has no such notion and sees
// a read.
func (m *mem) ReadDependent(addr uint64) {
	m.Sim.Read(addr)
	if m.t != nil {
		m.t.ReadDependent(addr)
	}
}

// Batch gives the simulator ops as sim.Batch takes them (bit 0 the write
// flag) and the tracer the same with bit 1 cleared: for words of one or
// two bytes it is an address bit, which never changes the line.
func (m *mem) Batch(ops []uint64) {
	m.Sim.Batch(ops)
	if m.t == nil {
		return
	}
	t := m.ops[:0]
	for _, op := range ops {
		t = append(t, op&^traceDep)
	}
	m.t.Batch(t)
	m.ops = t
}
