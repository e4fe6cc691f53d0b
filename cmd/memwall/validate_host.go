package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"memwall/engine/machine"
	"memwall/engine/units"
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
		ms.Kernel, ms.Span = memorySpeedLoop, int64(len(h.memBuf))*8 // the span its checks gathered over
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

// hostSpeedKernel is the loop validate times against its calibrated rate
// at the start of every round of a size class and at its end: the
// permutation product's, a loop of independent operations, which a
// neighbour on the core's other hardware thread slows most
// (measure.HostSpeed). hostSpeedSamples of a millisecond or more each
// take a few milliseconds a check. On the development guest, in a busy
// hour, five checks in a row read 0.99, 0.67, 0.55, 0.51 and 0.71: the
// core's speed changes within seconds, so one check before a class
// would say little about it.
const (
	hostSpeedKernel  = "perm"
	hostSpeedSamples = 3
)

// hostSpeedBand is how far from its calibrated rate the loop's median
// may run before validate says the class's ratios may carry the
// difference: the development guest's quiet calibrations read the rate
// within 8 % of each other.
const hostSpeedBand = 0.1

// classSpeed is how fast the core ran during one size class: the loop's
// rate over its calibrated one, at each check; or, for memory, the
// gather's over Span bytes.
type classSpeed struct {
	Class  string  `json:"class"`
	Kernel string  `json:"kernel"`
	Span   int64   `json:"span,omitempty"`
	Checks int     `json:"checks"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// speedOf sums up a class's checks, to three decimals.
func speedOf(class string, speeds []float64) classSpeed {
	st := measure.Summarize(speeds)
	r := func(x float64) float64 { return math.Round(1000*x) / 1000 }
	return classSpeed{Class: class, Kernel: hostSpeedKernel, Checks: len(speeds), Median: r(st.Median), Min: r(st.Min), Max: r(st.Max)}
}

// describe says how fast the core ran, and what that may do to the
// class's ratios when its median is off the calibrated rate by more
// than hostSpeedBand. Only "may": each row keeps its fastest round, which
// a class with a slow median can still have run at full speed.
func (h classSpeed) describe() string {
	return fmt.Sprintf("host: the %s loop in L1 ran at %.2f to %.2f of its calibrated rate over these rows (median %.2f, %d checks)", h.Kernel, h.Min, h.Max, h.Median, h.Checks) +
		h.offBy("the core", "their ratios")
}

// offBy is what a median more than hostSpeedBand off says of the rows:
// what ran slower or faster, and how far whose ratios may run high or low.
func (h classSpeed) offBy(what, ratios string) string {
	switch {
	case h.Median < 1-hostSpeedBand:
		return fmt.Sprintf(": %s ran slower than when calibrated, and %s may run high by up to %.0f %%", what, ratios, 100*(1/h.Median-1))
	case h.Median > 1+hostSpeedBand:
		return fmt.Sprintf(": %s ran faster than when calibrated, and %s may run low by up to %.0f %%", what, ratios, 100*(1-1/h.Median))
	}
	return ""
}

// memorySpeedLoop names memory's check in classSpeed, and
// memorySpeedSamples is its samples a check, the fastest kept.
const (
	memorySpeedLoop    = "gather"
	memorySpeedSamples = 3
)

// describeMemory is describe for memory's checks: the rows that read
// memory run slower with it, the others not.
func (h classSpeed) describeMemory() string {
	return fmt.Sprintf("memory: random reads by index over %s ran at %.2f to %.2f of the machine's gather curve there (median %.2f, %d checks)", units.FormatSize(h.Span), h.Min, h.Max, h.Median, h.Checks) +
		h.offBy("memory", "the ratios of the rows it bounds")
}
