package main

import (
	"context"
	"fmt"
	"io"

	"memwall/engine/machine"
	"memwall/measure"
)

// hostChecks times the core's loop against its calibrated rate
// (measure.HostSpeed), and memory's gather against the machine's gather
// curve (measure.MemorySpeed) while the rows being timed read memory,
// each time check is called: at every round's start and at the end of a
// run of rows. Every mode of validate takes them (the size classes, the
// paper's, large and small sizes, a sweep), so that a row out of the
// band says whether the host ran as it did when it was calibrated: on
// the Zen 5 guest a table at the paper's sizes read heapsort at 1.30 and
// the counting bucket sort at 1.64 of the estimate, and the same table a
// minute later 1.07 and 1.08, with nothing to tell the two apart.
type hostChecks struct {
	m machine.Machine
	// memory says whether the rows now timed read memory; memBuf is the
	// array memory's checks gather from, allocated and faulted in at the
	// first of them.
	memory    bool
	memBuf    []uint64
	core, mem []float64
}

// check takes one reading of the core's speed, and of memory's where the
// rows read it and the machine has a gather curve to read it against. A
// machine without the core's rate or the curve gets no reading.
func (h *hostChecks) check() {
	if s, err := measure.HostSpeed(context.Background(), h.m, hostSpeedKernel, hostSpeedSamples); err == nil {
		h.core = append(h.core, s)
	}
	if !h.memory {
		return
	}
	if h.memBuf == nil {
		span := measure.MemorySpeedSpan(h.m)
		if span <= 0 {
			return
		}
		h.memBuf = make([]uint64, span/8)
		for i := range h.memBuf {
			h.memBuf[i] = uint64(i)
		}
	}
	if s, err := measure.MemorySpeed(context.Background(), h.m, h.memBuf, memorySpeedSamples); err == nil {
		h.mem = append(h.mem, s)
	}
}

// report adds the readings since the last report to rep as class's, and
// starts afresh.
func (h *hostChecks) report(class string, rep *validateReport) {
	if len(h.core) > 0 {
		rep.HostSpeed = append(rep.HostSpeed, speedOf(class, h.core))
	}
	if len(h.mem) > 0 {
		ms := speedOf(class, h.mem)
		ms.Kernel, ms.Span = memorySpeedLoop, measure.MemorySpeedSpan(h.m)
		rep.MemorySpeed = append(rep.MemorySpeed, ms)
	}
	h.core, h.mem = nil, nil
}

// readsMemory says whether rows whose arrays take bytes read memory: their
// data pass twice the last cache.
func readsMemory(m machine.Machine, bytes int64) bool { return bytes >= 2*m.C }

// printHostSpeeds prints the core's and memory's readings, a line a run
// of rows each.
func printHostSpeeds(w io.Writer, rep validateReport) {
	for _, h := range rep.HostSpeed {
		fmt.Fprintf(w, "%-7s %s\n", h.Class, h.describe())
	}
	for _, h := range rep.MemorySpeed {
		fmt.Fprintf(w, "%-7s %s\n", h.Class, h.describeMemory())
	}
}
