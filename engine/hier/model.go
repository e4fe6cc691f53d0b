package hier

import (
	"fmt"
	"math"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

// The hierarchy model: the MBRAM paper's closed forms, derived again level by
// level (docs/hierarchy.md). A kernel's time is
//
//	T = ops/R + mispredictions·m + Σ_i (seq_i·B_i/β1,i + rand_i·B_i/β2,i + dep_i·d_i)
//
// with R the compute rate, seq_i, rand_i and dep_i the lines level i moves
// (fills from the level below and write-backs to it) that continue a
// stream or are written back, come from a random place, or come from a
// random place at an address that depended on the load before, and d_i
// the part of the latency step from level i to the next that such a load
// waits for. A write-back counts with seq_i wherever its line lies: it is
// posted, and costs bandwidth, not a wait (engine/hier/doc.go).

// Streams is how many sequential streams at once a level keeps as
// streams on a machine that does not give its own (machine.Machine's
// Streams, which calibration measures): a pass that reads one stream and
// writes b has its fills charged as random when b + 1 exceeds it (the
// MBRAM paper's Model Rule 8 bounds the streams by the cache's lines;
// hardware prefetchers track far fewer, 16 to 32 on current cores, and
// the smaller bound is the one that binds).
const Streams = 16

// StreamsOf is the streams the model lets m's core keep: its measured
// bound, else Streams.
func StreamsOf(m machine.Machine) int {
	if m.Streams > 0 {
		return m.Streams
	}
	return Streams
}

// DivOps is what one integer division counts in operations: a 64-bit
// division occupies the divider for some six to forty cycles on current
// cores (vendor optimisation manuals), in which the core would otherwise
// retire four or more simple operations a cycle; the two-pass permutation
// product divides twice per element.
const DivOps = 32

// The band a hierarchy-model estimate is held to: measured over
// predicted from BandLo to BandHi counts as right (memwall validate and
// the Data page count the runs inside it).
const (
	BandLo = 0.8
	BandHi = 1.25
)

// InBand says whether a ratio measured/predicted lies in [BandLo, BandHi].
func InBand(ratio float64) bool { return ratio >= BandLo && ratio <= BandHi }

// Traffic is the lines one level moves in a run, by kind.
type Traffic struct {
	Seq  float64 `json:"sequential"`
	Rand float64 `json:"random"`
	Dep  float64 `json:"dependent"`
}

func (t *Traffic) add(o Traffic) { t.Seq += o.Seq; t.Rand += o.Rand; t.Dep += o.Dep }

// Work is what a kernel does besides moving lines.
type Work struct {
	Ops         float64 `json:"ops"`
	Mispredicts float64 `json:"mispredictions"`
	// CallMispredicts are the mispredictions of loops over a bucket's
	// keys: such a loop runs a Poisson number of times and its exit is
	// mispredicted once a loop. They grow with the calls of a
	// most-significant-digit sort, which small subproblems at the bottom
	// of its recursion multiply, or with the buckets of a radix sort, not
	// with the operations, so a core rate measured at one size cannot
	// hold them: they are charged at the machine's penalty beside any
	// rate.
	CallMispredicts float64 `json:"call_mispredictions,omitempty"`
	// Calls are the distributing calls of a most-significant-digit sort
	// and CallOps their operations, a part of Ops: on a machine with a
	// rate of such calls (kernelForm.callsKey) the calls are charged at
	// it in place of CallOps at the core rate and their CallMispredicts
	// at the machine's penalty.
	Calls   float64 `json:"calls,omitempty"`
	CallOps float64 `json:"call_ops,omitempty"`
}

// LevelEstimate is one level's share of a prediction.
type LevelEstimate struct {
	Level   machine.Level `json:"level"`
	Traffic Traffic       `json:"traffic"`
	Seconds float64       `json:"seconds"`
	// Warm says the kernel's data fit in the level, so a repeated run
	// moves no lines into it.
	Warm bool `json:"warm"`
	// Overlapped says Seconds is what the level's independent fills add
	// to the core's work beside which they run (firstLevelSeconds).
	Overlapped bool `json:"overlapped,omitempty"`
	// Hidden is what the level's independent fills hide behind the same
	// lines' slower steps at other levels (HideLevels), taken off
	// Seconds.
	Hidden float64 `json:"hidden_seconds,omitempty"`
	// Reach is the bytes of the last level a kernel's chain of dependent
	// reads finds there (kernelForm.chain, machine.Machine.DependentReach)
	// when that is less than its size; 0 otherwise.
	Reach float64 `json:"dependent_reach_bytes,omitempty"`
}

// Estimate is the hierarchy model's prediction of one kernel.
type Estimate struct {
	Kernel    string          `json:"kernel"`
	Work      Work            `json:"work"`
	Compute   float64         `json:"compute_seconds"`
	Branch    float64         `json:"branch_seconds"`
	Levels    []LevelEstimate `json:"levels"`
	Seconds   float64         `json:"seconds"`
	Footprint int64           `json:"footprint_bytes"`
	NoCompute bool            `json:"no_compute_rate,omitempty"`
	// BranchInRate says the kernel's own core rate was measured with its
	// branch mispredictions, so Branch holds only the calls' (Work) and
	// Compute the rest.
	BranchInRate bool `json:"branch_in_rate,omitempty"`
	// Rate is the operations per second Compute charges the work at
	// (RateFor, or the core rate RateKey names); RateKey is that rate's
	// key in the machine's core rates when it is not the kernel's own
	// (kernelForm.rateKey), "" otherwise.
	Rate    float64 `json:"rate,omitempty"`
	RateKey string  `json:"rate_key,omitempty"`
	// Passes is a distribution sort's passes priced off the machine's
	// distribution curve (passTimes), inside Seconds; PassWork and
	// PassCurve are their work at the kernel's rate and the curve's time
	// for them, of which each loop is charged the longer. Compute then
	// holds only the work besides the passes, and Levels their traffic.
	Passes    float64 `json:"pass_seconds,omitempty"`
	PassWork  float64 `json:"pass_work_seconds,omitempty"`
	PassCurve float64 `json:"pass_curve_seconds,omitempty"`
	// PassOps are the operations of the passes' loops, which Compute
	// leaves out; CurveLoops says the loops are the curve's own (the
	// counting sorts', and the simple sorts' on a curve with their put
	// loop), charged the curve's time at any rate, so the
	// kernel's rate prices only its other work.
	PassOps    float64 `json:"pass_ops,omitempty"`
	CurveLoops bool    `json:"curve_loops,omitempty"`
	// PutLoop says the curve's loop is the simple sorts' scatter, timed
	// as the curve's put (machine.DistPoint.Put).
	PutLoop bool `json:"put_loop,omitempty"`
	// PassRate is the rate the passes' work is charged at when it is
	// another kernel's (kernelForm.loopKernel): the simple bucket sort's
	// scatter loop is the simple radix sort's, so the radix sort's core
	// rate, which that loop is nearly all of, prices it, and the bucket
	// sort's own rate only its calls. 0: the kernel's own rate.
	PassRate float64 `json:"pass_rate,omitempty"`
	// CallSeconds is the Work.Calls charged at the machine's rate of
	// such calls, CallRate a second (kernelForm.callsKey), inside
	// Seconds; Compute then leaves out their Work.CallOps and Branch
	// their mispredictions. 0 on a machine without that rate.
	CallSeconds float64 `json:"call_seconds,omitempty"`
	CallRate    float64 `json:"call_rate,omitempty"`
	// Translation is what the page walks of reads that each land on
	// another page add (kernelForm.walks), inside Seconds: the reads
	// times the machine's walk at their span (machine.WalkAt).
	Translation float64 `json:"translation_seconds,omitempty"`
	// MemLatency is the latency the dependent lines from memory are
	// charged (the step from the last level's latency to it): the
	// machine's memory latency at the data's span
	// (machine.Machine.MemLatencyAt), or averaged over the spans the
	// kernel's data shrinks through when MemLatencyShrinks (heapsort's
	// heap: heapMemLatency); 0 when the kernel has none.
	MemLatency        float64 `json:"mem_latency_seconds,omitempty"`
	MemLatencyShrinks bool    `json:"mem_latency_shrinks,omitempty"`
	// Spread is what address translation adds to the kernel's random
	// reads spread over SpreadSpan bytes (kernelForm.spread) beyond what
	// the levels' random rates hold, inside Seconds (spreadTranslation).
	Spread      float64 `json:"spread_translation_seconds,omitempty"`
	SpreadReads float64 `json:"spread_reads,omitempty"`
	SpreadSpan  float64 `json:"spread_span_bytes,omitempty"`
	// GatherRead is the machine's gather curve at SpreadSpan
	// (machine.Machine.GatherAt), 0 where the curve does not cover it: on
	// a machine whose curve does, the kernel's SpreadReads reads take at
	// least GatherRead each, their loop and the levels' hits with them,
	// in place of the levels' random fills and Spread
	// (kernelForm.gathered). Gather is what that floor adds to the rest
	// of the estimate, inside Seconds.
	Gather     float64 `json:"gather_seconds,omitempty"`
	GatherRead float64 `json:"gather_read,omitempty"`
	// Streaming is what moving StreamLines lines through StreamCount
	// streams at once adds beyond a stream's cost
	// (kernelForm.manyStreams), inside Seconds: the lines times the
	// machine's stream curve's excess at that count
	// (machine.Machine.StreamExcess).
	Streaming   float64 `json:"streaming_seconds,omitempty"`
	StreamLines float64 `json:"stream_lines,omitempty"`
	StreamCount float64 `json:"stream_count,omitempty"`
	// Crowded is what the kernel's CrowdedReads reads, crowded into one
	// place of their pages (kernelForm.crowded), add to reach the
	// machine's crowded read each (machine.Machine.CrowdedRead) beyond
	// what the levels and the page walks charge, inside Seconds.
	Crowded      float64 `json:"crowded_seconds,omitempty"`
	CrowdedReads float64 `json:"crowded_reads,omitempty"`
	// Column is what the kernel's ColumnSteps steps add to reach the
	// machine's column curve at their column's shape, ColumnRead a step
	// (machine.Machine.ColumnReadAt, kernelForm.column), beyond the rest
	// of the estimate, inside Seconds.
	Column       float64 `json:"column_seconds,omitempty"`
	ColumnSteps  float64 `json:"column_steps,omitempty"`
	ColumnPlaces float64 `json:"column_places,omitempty"`
	ColumnRead   float64 `json:"column_read,omitempty"`
	// LevelHidden is what the levels' independent fills hide behind the
	// slower steps of the same lines at other levels, on a machine whose
	// levels' transfers overlap (Machine.LevelOverlap, HideLevels): the
	// sum of the levels' Hidden, already taken off their Seconds and off
	// Seconds.
	LevelHidden float64 `json:"level_hidden_seconds,omitempty"`
	Description string  `json:"description"`
}

// Model predicts kernelID's time for workload p on m by the hierarchy
// model. A machine without levels is one level (machine.Hierarchy); a
// machine without a compute rate is charged no compute time, which the
// Estimate says.
func Model(m machine.Machine, kernelID string, p mbram.Params) (Estimate, error) {
	k, ok := mbram.Lookup(kernelID)
	if !ok {
		return Estimate{}, mbram.ErrUnknownKernel(kernelID)
	}
	if err := k.Check(p); err != nil {
		return Estimate{}, err
	}
	if err := m.Validate(); err != nil {
		return Estimate{}, err
	}
	return estimateOf(m, kernelID, p, nil)
}

// Sweep is Model's time for each n of ns, the rest of the workload as p,
// with the machine validated once rather than at every point (a sweep's
// points share it, and its validation was a quarter of a point's time):
// 0 where the model refuses the workload or gives no positive finite
// time. The error is the machine's or the kernel's.
func Sweep(m machine.Machine, kernelID string, p mbram.Params, ns []int64) ([]float64, error) {
	k, ok := mbram.Lookup(kernelID)
	if !ok {
		return nil, mbram.ErrUnknownKernel(kernelID)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	out := make([]float64, len(ns))
	// The points' level estimates share one buffer: only their seconds
	// are kept.
	buf := make([]LevelEstimate, 0, max(1, len(m.Levels)))
	for i, n := range ns {
		q := p
		q.N = n
		if k.Check(q) != nil {
			continue
		}
		if e, err := estimateOf(m, kernelID, q, buf); err == nil && e.Seconds > 0 && !math.IsInf(e.Seconds, 0) {
			out[i] = e.Seconds
		}
	}
	return out, nil
}

// estimateOf is Model for a machine and a workload already checked. Its
// Levels are built in levelBuf when that has room for them (a caller
// that passes one owns the result's Levels only until the next call).
func estimateOf(m machine.Machine, kernelID string, p mbram.Params, levelBuf []LevelEstimate) (Estimate, error) {
	levels := m.Levels // read only: Hierarchy's copy is for callers that keep it
	if len(levels) == 0 {
		levels = m.Hierarchy()
	}
	kw, ok := kernelForms[kernelID]
	if !ok {
		return Estimate{}, mbram.ErrUnknownKernel(kernelID)
	}
	e := Estimate{Kernel: kernelID, Description: kw.describe}
	w := shape{n: float64(p.N), w: float64(p.W), b: float64(p.Buckets), c: float64(m.C), streams: float64(StreamsOf(m)), m: m}
	e.Work = kw.work(w)
	footprint := kw.footprint(w)
	e.Footprint = int64(math.Min(footprint, math.MaxInt64/2))
	rate := RateFor(m, kernelID)
	if kw.rateKey != nil {
		if k := kw.rateKey(w); k != "" && m.CoreRates[k] > 0 {
			rate, e.RateKey = m.CoreRates[k], k
		}
	}
	e.Rate = rate
	ops, traffic := e.Work.Ops, kw.traffic
	if kw.passes != nil {
		ps := kw.passes(w)
		passRate := rate
		if r := m.CoreRates[kw.loopKernel]; kw.loopKernel != "" && r > 0 {
			passRate = r
		}
		if secs, work, curve, pops, own, ok := passTimes(w, ps, passRate); ok {
			e.Passes, e.PassWork, e.PassCurve, e.PassOps = secs, work, curve, pops
			if passRate != rate && !own {
				e.PassRate = passRate
			}
			ops = math.Max(0, ops-pops)
			traffic = kw.rest
			e.Description = passesDescribe
			switch e.CurveLoops = own && len(ps) > 0; {
			case e.CurveLoops && ps[0].curveLoops:
				e.Description = countingPassesDescribe
			case e.CurveLoops:
				e.PutLoop, e.Description = true, ownPassesDescribe
			}
		}
	}
	if r := m.CoreRates[kw.callsKey]; kw.callsKey != "" && r > 0 && e.Work.Calls > 0 {
		e.CallRate, e.CallSeconds = r, e.Work.Calls/r
		ops = math.Max(0, ops-e.Work.CallOps)
	}
	if kw.spread != nil {
		e.SpreadReads, e.SpreadSpan = kw.spread(w)
		if read, ok := m.GatherAt(e.SpreadSpan); ok && kw.gathered != nil && e.SpreadReads > 0 {
			e.GatherRead = read
			traffic = kw.gathered
		}
	}
	if rate > 0 {
		e.Compute = ops / rate
	} else {
		e.NoCompute = true
	}
	// A kernel's own core rate is measured on its loop with its
	// mispredictions: both counts grow alike (N·log N for the sorts), and
	// taking the penalty out of an in-L1 run of a sort, where it is most
	// of the time, would divide by the difference of two noisy numbers.
	e.BranchInRate = m.CoreRates[kernelID] > 0 || e.RateKey != ""
	e.Branch = branchCharged(e) * m.M
	if kw.walks != nil {
		reads, span := kw.walks(w)
		e.Translation = reads * m.WalkAt(span)
	}
	if kw.spread != nil && e.GatherRead == 0 {
		e.Spread = spreadTranslation(m, levels, e.SpreadReads, e.SpreadSpan)
	}
	if kw.manyStreams != nil {
		lines, count := kw.manyStreams(w)
		if x, ok := m.StreamExcess(count); ok && x > 0 && lines > 0 {
			e.Streaming, e.StreamLines, e.StreamCount = lines*x, lines, count
		}
	}
	e.Seconds = e.Compute + e.Branch + e.CallSeconds + e.Passes + e.Translation + e.Spread + e.Streaming
	// Sized up front: a sweep runs this for every point, and in the
	// browser the allocations of a growing slice were a third of a point.
	if e.Levels = levelBuf[:0]; cap(levelBuf) < len(levels) {
		e.Levels = make([]LevelEstimate, 0, len(levels))
	}
	parts := make([]LevelPart, 0, machine.MaxLevels) // the levels' independent fills (HideLevels)
	for i, l := range levels {
		le := LevelEstimate{Level: l}
		lv := lvlOf(l)
		if kw.chain {
			lv = chainLvl(m, levels, i)
			if lv.size < float64(l.Size) {
				le.Reach = lv.size
			}
		}
		if footprint <= lv.size {
			le.Warm = true
		} else {
			le.Traffic = traffic(w, lv)
		}
		inFlight := 1.0
		if kw.depInFlight != nil {
			inFlight = math.Max(1, kw.depInFlight(w, lv))
		}
		next := nextLatency(m, levels, i, footprint)
		if i == len(levels)-1 {
			shrinks := false
			if kw.memLatency != nil {
				if lat, ok := kw.memLatency(w, lv); ok {
					next, shrinks = lat, true
				}
			}
			if le.Traffic.Dep > 0 {
				e.MemLatency, e.MemLatencyShrinks = next, shrinks
			}
		}
		if le.Overlapped = i == 0 && m.L1Fill > 0 && m.L1Exposed > 0; le.Overlapped {
			le.Seconds = firstLevelSeconds(m, l, le.Traffic, e.Compute+e.Branch+e.CallSeconds, next, inFlight)
		} else {
			le.Seconds = levelSeconds(l, le.Traffic, next, inFlight)
		}
		e.Seconds += le.Seconds
		e.Levels = append(e.Levels, le)
		parts = append(parts, levelPart(l, le, levelSeconds(l, Traffic{Dep: le.Traffic.Dep}, next, inFlight)))
	}
	var hidden [machine.MaxLevels]float64
	for i, h := range hideLevels(hidden[:0], parts, m.LevelOverlap) {
		h = math.Min(h, e.Levels[i].Seconds) // no term below zero by rounding
		e.Levels[i].Seconds -= h
		e.Levels[i].Hidden = h
		e.LevelHidden += h
	}
	e.Seconds -= e.LevelHidden
	// A floor on the whole, as the column curve's below: the gather
	// curve times a loop of such reads with its index stream, and the
	// kernel's other work and streams go on while the reads are in
	// flight (docs/hierarchy.md, "The gather below the last cache, and
	// as a floor").
	if e.GatherRead > 0 {
		if x := e.SpreadReads*e.GatherRead - e.Seconds; x > 0 {
			e.Gather = x
			e.Seconds += x
		}
	}
	// A machine with a column curve prices the product's reads by it,
	// which the crowded read's floor is one point of.
	if kw.crowded != nil && m.CrowdedRead > 0 && len(m.ColumnCurve) == 0 && len(levels) > 0 {
		reads := kw.crowded(w, lvlOf(levels[0]))
		// A floor, not a sum: the crowded reads' fills from the levels
		// and their page walks go on while they queue for the set.
		charged := e.Translation
		for _, le := range e.Levels {
			charged += le.Seconds
		}
		if x := reads*m.CrowdedRead - charged; reads > 0 && x > 0 {
			e.Crowded, e.CrowdedReads = x, reads
			e.Seconds += x
		}
	}
	if kw.column != nil && len(levels) > 0 {
		steps, places, lines := kw.column(w, lvlOf(levels[0]))
		// A floor on the whole: the curve times the kernel's own loop,
		// its work, fills and page walks together, at the column's shape.
		if read, ok := m.ColumnReadAt(places, lines); ok && steps > 0 {
			if x := steps*read - e.Seconds; x > 0 {
				e.Column, e.ColumnSteps, e.ColumnPlaces, e.ColumnRead = x, steps, places, read
				e.Seconds += x
			}
		}
	}
	if math.IsNaN(e.Seconds) || math.IsInf(e.Seconds, 0) || e.Seconds < 0 {
		return Estimate{}, fmt.Errorf("%s: the hierarchy model gave %g s for n = %d; the workload is outside what it covers", kernelID, e.Seconds, p.N)
	}
	return e, nil
}

// RateFor is the operations per second the model charges kernelID's work
// at on m: the kernel's own core rate when calibration measured it, else
// the machine's compute rate (0 when neither is given).
func RateFor(m machine.Machine, kernelID string) float64 {
	if r := m.CoreRates[kernelID]; r > 0 {
		return r
	}
	return m.ComputeRate
}

// nextLatency is the latency of the level below level i, 0 when not
// given; after the last level memory's, at the span of the kernel's data
// (its footprint): a dependent read waits for its translation too, and
// that grows with the span its page tables cover.
func nextLatency(m machine.Machine, levels []machine.Level, i int, span float64) float64 {
	if i+1 < len(levels) {
		return levels[i+1].Latency
	}
	return m.MemLatencyAt(span)
}

// levelSeconds charges one level's lines. A dependent line waits for the
// latency step below the level, shared with the dependent lines the
// kernel has in flight beside it (inFlight, at least 1); without both
// latencies it is charged as a random line.
func levelSeconds(l machine.Level, t Traffic, next, inFlight float64) float64 {
	b := float64(l.Line)
	dep := b / l.Beta2
	if l.Latency > 0 && next > l.Latency {
		dep = (next - l.Latency) / inFlight
	}
	return t.Seq*b/l.Beta1 + t.Rand*b/l.Beta2 + t.Dep*dep
}

// firstLevelSeconds charges the first level's lines on a machine that
// says how its fills and the core's work hide each other
// (Machine.L1Fill, L1Exposed): the independent fills, sequential and
// random, take F = lines·L1Fill on their own, and with the core's work W
// they take max(W, F) + κ·min(W, F); the level is charged what that adds
// to W. Dependent lines wait for their load whatever the core does, so
// they are charged as levelSeconds charges them.
func firstLevelSeconds(m machine.Machine, l machine.Level, t Traffic, work, next, inFlight float64) float64 {
	return Overlap(work, (t.Seq+t.Rand)*m.L1Fill, m.L1Exposed) - work + levelSeconds(l, Traffic{Dep: t.Dep}, next, inFlight)
}

// levelPart is level l's independent fills in estimate le, whose
// dependent lines take dep seconds: the first level's, when they run
// beside the core's work, shared between its sequential and random lines
// by their count.
func levelPart(l machine.Level, le LevelEstimate, dep float64) LevelPart {
	t := le.Traffic
	if le.Overlapped {
		part, lines := le.Seconds-dep, t.Seq+t.Rand
		if !(lines > 0) {
			return LevelPart{}
		}
		return LevelPart{Seq: part * t.Seq / lines, SeqLines: t.Seq, Rand: part * t.Rand / lines, RandLines: t.Rand}
	}
	b := float64(l.Line)
	return LevelPart{Seq: t.Seq * b / l.Beta1, SeqLines: t.Seq, Rand: t.Rand * b / l.Beta2, RandLines: t.Rand}
}

// Overlap is the time of two parts of a run that proceed side by side,
// a and b seconds on their own, when a share exposed (κ, 0 to 1) of the
// shorter is not hidden by the longer: max(a, b) + κ·min(a, b). κ = 1 is
// one after the other, κ = 0 the longer alone.
func Overlap(a, b, exposed float64) float64 {
	return math.Max(a, b) + exposed*math.Min(a, b)
}

// shape is a workload as the forms read it: n elements (the dimension for
// matmul) of w bytes, b buckets, the machine (for C, which sizes the
// two-pass product's blocks) and the streams its core keeps (StreamsOf).
type shape struct {
	n, w, b, c float64
	streams    float64
	m          machine.Machine
}

// lvl is one level as the forms read it: bytes, line bytes, lines.
type lvl struct{ size, line, lines float64 }

// lvlOf is level l as the kernels' traffic reads it.
func lvlOf(l machine.Level) lvl {
	return lvl{size: float64(l.Size), line: float64(l.Line), lines: float64(l.Lines())}
}

// chainLvl is level i of levels, m's, as a chain of dependent reads finds
// it: the last level only up to the machine's DependentReach, which its
// latency curve gives where a chase leaves the level before the level's
// size (a share of a cache other tenants fill too).
func chainLvl(m machine.Machine, levels []machine.Level, i int) lvl {
	lv := lvlOf(levels[i])
	if i == len(levels)-1 {
		if r := m.DependentReach(); r > 0 && r < lv.size {
			lv.size, lv.lines = r, math.Floor(r/lv.line)
		}
	}
	return lv
}

type kernelForm struct {
	describe  string
	footprint func(s shape) float64
	work      func(s shape) Work
	traffic   func(s shape, l lvl) Traffic
	// depInFlight is how many of the kernel's dependent lines are
	// fetched at once (nil: one, each waits for the whole step).
	depInFlight func(s shape, l lvl) float64
	// chain says the kernel's misses are a chain of dependent reads (a
	// walk down a heap): the last level holds for them what a chase finds
	// there (chainLvl).
	chain bool
	// memLatency is memory's latency for the kernel's dependent lines
	// past the last level l, with ok false where it is the machine's
	// latency at the data's span (nil: always that; nextLatency).
	memLatency func(s shape, l lvl) (latency float64, ok bool)
	// passes are a distribution sort's passes, and rest the traffic of
	// what it does besides them: on a machine with a distribution
	// curve the passes are priced off the curve (passTimes) and only
	// the rest off the levels.
	passes func(s shape) []pass
	rest   func(s shape, l lvl) Traffic
	// rateKey names, for a shape, the machine's core rate that prices
	// the kernel's work there when the machine has it ("" or absent: its
	// own, RateFor): a loop whose speed in the core turns on its data's
	// shape, as the two-pass product's pointer bumps do on its blocks'
	// count (TwoPassBlocksRate), is measured at each shape it runs.
	rateKey func(s shape) string
	// callsKey is the key of a rate of the kernel's distributing calls
	// in the machine's core rates (BucketCallsRate), "" for a kernel
	// priced by its operations alone.
	callsKey string
	// loopKernel is the kernel whose core rate prices the passes' work,
	// when measured: another kernel that runs the same scatter loop and
	// little else, whereas this one's rate, read at the small size
	// calibration times it at, is mostly its calls' ("": its own).
	loopKernel string
	// walks are the kernel's reads that go round a cycle of pages, one
	// line to a page, and the span of that cycle as the machine's page
	// walk is read at (machine.DistPoint): each may wait for a page walk
	// while its line is still cached. The levels' random rates pay the
	// walks of reads spread over a level, at the size calibration read
	// it at; spread charges reads over other spans the difference.
	walks func(s shape) (reads, span float64)
	// spread are the kernel's independent reads that fall at random
	// across span bytes: each waits for the translation of an address
	// in that span, where the levels' random rates hold the translation
	// of reads across the arrays calibration read them at
	// (spreadTranslation).
	spread func(s shape) (reads, span float64)
	// gathered is the kernel's traffic less its spread reads, for a
	// machine whose gather curve covers their span: the curve times a
	// loop of such reads (s += a[idx[i]]) with its index stream, its
	// work and the levels' hits at that span, so the kernel takes at
	// least the curve's time for the reads, and its work and the levels'
	// price of the rest of its traffic go on beside them (nil: the
	// levels price the reads at every span). Only a kernel whose
	// spread reads are such a loop has it: the permutation product's
	// Y[X[i]], and not the two-pass product's phase II, whose first read
	// of each line comes from memory while its block is read within the
	// last cache, where no curve point was taken.
	gathered func(s shape, l lvl) Traffic
	// manyStreams are the lines, of the machine's line, that the kernel
	// moves through count streams at once beyond the caches, as the
	// stream curve's scatter moves its keys into count buckets
	// (machine.StreamPoint): the curve's excess at count prices each
	// beyond a stream's cost, where the levels charge them as streams.
	manyStreams func(s shape) (lines, count float64)
	// crowded is the kernel's reads whose lines take one place of their
	// pages with the lines read around them and so miss the first level
	// l (columnSets): each takes at least the machine's crowded read
	// (machine.Machine.CrowdedRead).
	crowded func(s shape, first lvl) float64
	// column is the kernel's steps over a matrix column, the line places
	// of their pages the column's lines take in the first level l
	// (columnPlaces) and its lines: the machine's column curve
	// (machine.ColumnPoint) times a step at that shape.
	column func(s shape, first lvl) (steps, places, lines float64)
}

var kernelForms = map[string]kernelForm{
	"perm": {
		describe:  "X and Z stream; each read of Y hits a level with the chance its share of Y is cached, and waits for the page walk of a read across Y; on a machine whose gather curve reaches Y's span, the product takes at least the curve's time there for each read of Y, its other work and X and Z beside the reads (docs/hierarchy.md)",
		footprint: func(s shape) float64 { return 3 * s.n * s.w },
		// Per element: load X[i], load Y[X[i]], store Z[i], and the
		// loop's increment, compare and branch.
		work:    func(s shape) Work { return Work{Ops: 6 * s.n} },
		traffic: permTraffic,
		// Each read of Y falls anywhere in it.
		spread: func(s shape) (float64, float64) { return s.n, s.n * s.w },
		// Without Y's reads: X read and Z written, streams.
		gathered: func(s shape, l lvl) Traffic { return l.stream(s.n*s.w, s.n*s.w) },
	},
	"perm-twopass": {
		describe:  "three passes of streams; phase II reads Y within a block of C/2 bytes, which fits in the levels at least that large; D's lines through the blocks, one stream each, cost the machine's stream curve's excess at their count once D outgrows the last cache, when the curve reaches that count (else the streams bound decides); its work at the core rate measured with several blocks when N fills more than one and the machine has it",
		footprint: func(s shape) float64 { return 4 * s.n * s.w },
		// Phase I and III: load, divide, load and bump the block's
		// pointer, load or store, loop (8 ops and a division each);
		// phase II: load D, load Y, store D, loop (6).
		work:    func(s shape) Work { return Work{Ops: (8 + DivOps + 6 + 8 + DivOps) * s.n} },
		traffic: twoPassTraffic,
		// Phase II's reads of Y fall anywhere in a block's segment.
		spread: func(s shape) (float64, float64) { return s.n, twoPassSegment(s) },
		rateKey: func(s shape) string {
			if twoPassBlocks(s) > 1 {
				return TwoPassBlocksRate
			}
			return ""
		},
		// Phase I writes D through a stream per block, phase III reads
		// it back through them; the curve is measured beyond the caches,
		// where D lies once it outgrows the last one.
		manyStreams: func(s shape) (float64, float64) {
			if s.n*s.w <= s.c {
				return 0, 0
			}
			return 2 * s.n * s.w / float64(s.m.B), twoPassBlocks(s)
		},
	},
	"matmul": {
		describe:  "per level: Q's column lines stay while a row is swept when n lines and a row fit in the line places of a page the column takes, else every access to Q misses (the MBRAM paper's regimes (1) and (2)); each read of Q waits for the machine's page walk at the column's span, and a step takes at least the machine's column curve at the column's places and lines where the machine has one, else a read of a column whose rows put it in one place of their pages at least its crowded read",
		footprint: func(s shape) float64 { return 3 * s.n * s.n * s.w },
		// Per inner step: load P, load Q, multiply, add, advance k by n,
		// and the loop's increment, compare and branch.
		work:    func(s shape) Work { return Work{Ops: 8 * s.n * s.n * s.n} },
		traffic: matmulTraffic,
		walks:   matmulWalks,
		crowded: matmulCrowded,
		column:  matmulColumn,
	},
	"quicksort": {
		describe:  "log2 N balanced partition levels; those whose subarrays exceed a level stream through it (the MBRAM paper App. a, per level)",
		footprint: func(s shape) float64 { return s.n * s.w },
		// Per element and level: load, compare, branch, advance (4), a
		// share of the swaps (2 loads and 2 stores for a quarter of the
		// elements: 1), the loop's bounds (2); and per element the
		// partitions' own cost (quickElementOps).
		work: func(s shape) Work {
			l := lg(s.n)
			return Work{Ops: 7*s.n*l + quickElementOps*s.n, Mispredicts: s.n / 2 * l}
		},
		traffic: quicksortTraffic,
	},
	"mergesort": {
		describe:  "log2 N merge levels, three streams each (two runs in, one out); those whose runs exceed a level stream through it (the MBRAM paper App. b, per level)",
		footprint: func(s shape) float64 { return 2 * s.n * s.w },
		// Per element and level: two loads, compare, branch, store, two
		// advances, loop test, and the copy into the other array (10).
		work:    func(s shape) Work { l := lg(s.n); return Work{Ops: 10 * s.n * l, Mispredicts: s.n / 2 * l} },
		traffic: mergesortTraffic,
	},
	"heapsort": {
		describe:    "N walks down the heap, log2 N − 1 steps each; the top levels stay cached, and each step below a level's share of the heap is a dependent line, log2(B/w) of them in flight; on a machine with a measured walk_in_flight the first line past each level waits in full and those below it walk_in_flight at a time, over the sort's shrinking heap, memory's latency read at each heap's span (the MBRAM paper App. c, per level)",
		footprint:   func(s shape) float64 { return s.n * s.w },
		work:        heapWork,
		traffic:     heapTraffic,
		depInFlight: heapLinesAhead,
		chain:       true,
		memLatency:  heapMemLatency,
	},
	"bucket": {
		describe:  "⌈log_b N⌉ distribution passes and a last copy; a pass whose subproblem exceeds a level streams through it, the fills of its b write streams random when b + 1 exceeds the streams the core keeps (16 unless measured)",
		footprint: func(s shape) float64 { return 3.5 * s.n * s.w },
		// Per element and pass: shift, mask, load the bucket's length,
		// compare with its capacity, index, store, store the length,
		// loop (11), and a copy step at the end (3).
		work: func(s shape) Work {
			calls, children := msdCalls(s)
			return Work{Ops: (simpleScatterOps*digits(s)+3)*s.n + calls*callOps + children*(childOps+0.5),
				CallMispredicts: calls, Calls: calls, CallOps: calls * callOps}
		},
		callsKey:   BucketCallsRate,
		traffic:    passesTraffic(bucketPasses(false), bucketRest(false)),
		passes:     bucketPasses(false),
		rest:       bucketRest(false),
		loopKernel: "radix",
	},
	"bucket-count": {
		describe:  "⌈log_b N⌉ counting and distribution passes into a second array; a pass whose subproblem exceeds a level streams through it, the fills of its b write streams random when b + 1 exceeds the streams the core keeps (16 unless measured)",
		footprint: func(s shape) float64 { return 2 * s.n * s.w },
		// Counting: load, shift, mask, increment a count, loop (6);
		// distribution: load, shift, mask, load the position, store,
		// bump the position, loop (8); with an odd number of digits a
		// copy of the keys first (load, store, a share of the loop: 2),
		// which turns the recursion round so it ends in the input array.
		work: func(s shape) Work {
			calls, children := msdCalls(s)
			return Work{Ops: ((countLoopOps+scatterLoopOps)*digits(s)+2*oddDigits(s))*s.n + calls*callOps + children*(childOps+3),
				CallMispredicts: 2 * calls}
		},
		traffic: passesTraffic(bucketPasses(true), bucketRest(true)),
		passes:  bucketPasses(true),
		rest:    bucketRest(true),
	},
	"radix": {
		describe:  "⌈log_b N⌉ distribution passes over all N and a last copy; the fills of its b write streams random when b + 1 exceeds the streams the core keeps (16 unless measured) (the MBRAM paper App. e, per level)",
		footprint: func(s shape) float64 { return 3.5 * s.n * s.w },
		work:      radixWork,
		traffic:   passesTraffic(radixPasses(false), radixRest(false)),
		passes:    radixPasses(false),
		rest:      radixRest(false),
	},
	"radix-count": {
		describe:  "⌈log_b N⌉ counting and distribution passes over all N between two arrays; the fills of its b write streams random when b + 1 exceeds the streams the core keeps (16 unless measured) (the MBRAM paper App. e, per level)",
		footprint: func(s shape) float64 { return 2 * s.n * s.w },
		work:      func(s shape) Work { return Work{Ops: (countLoopOps + scatterLoopOps) * digits(s) * s.n} },
		traffic:   passesTraffic(radixPasses(true), radixRest(true)),
		passes:    radixPasses(true),
		rest:      radixRest(true),
	},
}

// The calls of a most-significant-digit bucket sort, counted from the
// code (measure.BucketSortIn, BucketSortCountIn): a call that gets two
// keys or more distributes them (callOps, plus clearing and, with
// counting, summing its b counters) and then calls itself once per bucket;
// every such call, empty or not, costs childOps (the bucket's slice, the
// call, the length test, the return) and, in the caller, the clearing of
// its counter (half an operation; with counting, clearing, summing and
// copying it, three). A distributing call also leaves each loop over its
// keys at a count the predictor cannot know (a Poisson number at the
// bottom of the recursion), one mispredicted exit per loop: one loop
// (the distribution) in the simple sort, two (counting, distribution)
// with counting (Work.CallMispredicts).
const (
	callOps  = 15
	childOps = 14
)

// msdCalls is the expected number of distributing calls and of calls
// made by them in a most-significant-digit sort of n keys uniform on
// [0, n), with digits of log2 b bits from the top of the key's
// ⌈log2 n⌉ bits. A call at a depth where s bits remain gets the keys of
// one range of 2^s values: a Poisson number with mean λ = min(2^s, n)
// (one key per value), two or more with probability 1 − e^−λ(1 + λ);
// there are max(1, n/2^s) such ranges.
func msdCalls(s shape) (internal, children float64) {
	if s.n < 2 {
		return 0, 0
	}
	rb := math.Max(1, math.Log2(s.b))
	for bits := math.Ceil(math.Log2(s.n)); bits > 0; {
		w := math.Min(rb, bits)
		lambda := math.Min(math.Exp2(bits), s.n)
		calls := math.Max(1, s.n/math.Exp2(bits)) * (1 - math.Exp(-lambda)*(1+lambda))
		internal += calls
		children += calls * math.Exp2(w)
		bits -= w
	}
	return internal, children
}

// radixWork is the simple radix sort's work (measure.RadixSortIn): per
// key and pass the scatter (simpleScatterOps) and per key the copy back
// (load, store, a share of the loop: 3); and per bucket of the previous
// pass that a later pass reads, the loop over its keys (bucketReadOps:
// the outer loop's step, the bucket's slice and its spill test) whose
// exit comes at a Poisson count, mispredicted; and per bucket of the
// last pass copied back (bucketCopyOps: the slice, the copy's call, the
// offset), a copy whose length-dependent branches mispredict once. These
// do not grow with the keys, so a rate timed at a thousand keys would
// otherwise hold them (measured: 0.5 µs of a 4.4 µs call at 1024 keys,
// a rate 12 % below the one at 2^14 keys); they are charged beside the
// rate as the bucket sorts' calls are (Work.CallMispredicts).
func radixWork(s shape) Work {
	d := int(digits(s))
	copies, reads := digitBucket(s, 0, d), 0.0
	for j := 1; j < d; j++ {
		reads += digitBucket(s, j, d)
	}
	return Work{Ops: (simpleScatterOps*digits(s)+3)*s.n + reads*bucketReadOps + copies*bucketCopyOps,
		CallMispredicts: reads + copies}
}

// The operations of the simple radix sort's per-bucket steps (radixWork).
const (
	bucketReadOps = 6
	bucketCopyOps = 8
)

// quickElementOps is what quicksort's partitions cost besides their
// steps, per element, in the steps' operations: a partition of a few
// keys pays its pivot, the set-up of its two scans, their mispredicted
// exits and the recursion's test and call, and there are some N/2 of
// them. The rate is read at 2^11 keys, where that cost is a larger share
// of the time than at 2^23: timed in L1 and L2 at 2^9 to 2^15 keys on the
// Intel guest, memwall's quicksort took a·log2 N + c ns a key with c/a =
// 3.1, 4.1 and 3.5 in three fits (a = 3.8 to 4.1 ns), some 24 of the
// steps' 7 operations. Priced as 7·N·log2 N alone at the rate read at
// 2^11, it ran at 0.86 to 0.95 of the prediction in every class of four
// validate runs, and the faster merge sort ("Core rates") came out ahead
// of it beyond L2 where it ran a tenth slower. The merge sort's own
// per-element cost fits at −0.1 to 0.7 of a level's (its recursion stops
// at halves of two keys) and is left out.
const quickElementOps = 24

func lg(x float64) float64 { return math.Log2(math.Max(x, 1)) }

// oddDigits is 1 when digits(s) is odd, else 0.
func oddDigits(s shape) float64 { return math.Mod(digits(s), 2) }

// digits is ⌈log_b N⌉, at least 1.
func digits(s shape) float64 {
	d := math.Ceil(math.Log(math.Max(s.n, 2))/math.Log(s.b) - 1e-9)
	return math.Max(d, 1)
}

// lines is the lines of a level that bytes span.
func (l lvl) of(bytes float64) float64 { return bytes / l.line }

// stream is a pass that reads r bytes and writes wr bytes in streams: the
// read lines are filled, the written ones filled (write-allocate) and
// written back.
func (l lvl) stream(r, wr float64) Traffic {
	return Traffic{Seq: l.of(r) + 2*l.of(wr)}
}

func permTraffic(s shape, l lvl) Traffic {
	// The bandwidths are placeholders: only the counts are used.
	cfg := Config{Levels: []machine.Level{{Name: "L", Size: int64(l.size), Line: int64(l.line), Beta1: 1e9, Beta2: 1e9}}}
	w := int64(s.w)
	if w&(w-1) != 0 || w > int64(l.line) {
		// Words of a line or more: every read of Y is its own line.
		m := l.of(s.n * s.w)
		return Traffic{Seq: 3 * m, Rand: s.n * math.Ceil(s.w/l.line)}
	}
	pl, _, err := PermProduct(cfg, int64(s.n), w)
	if err != nil || len(pl) == 0 {
		m := l.of(s.n * s.w)
		return Traffic{Seq: 3 * m, Rand: s.n}
	}
	p := pl[0]
	return Traffic{Seq: p.SeqFills + p.Writebacks, Rand: p.RandFills}
}

// twoPassSegment is the bytes of Y that phase II of the two-pass product
// reads within at a time: a block's share, C/2 bytes for the machine's
// last cache C, or all of Y when it is smaller.
func twoPassSegment(s shape) float64 {
	blockLen := math.Max(1, math.Floor(s.c/2/s.w))
	return math.Min(blockLen, s.n) * s.w
}

// TwoPassBlocksRate is the key of the two-pass product's core rate with
// several blocks (machine.Machine.CoreRates), which prices its work when
// N fills more than one block; its own key, "perm-twopass", holds the rate
// with one. Phases I and III bump a block's pointer through memory for
// every element: with one block each bump reads the word the last one
// wrote, which the core hands on at once, and with several the word is
// one of the blocks' pointers, known only once the element's block is
// divided out. On the Zen 5 guest of docs/hierarchy.md the two phases
// took 2.0 ns an element with one block and 2.2 to 2.4 with 2 to 256,
// the data in L1 or L2 either way, and the product ran 1.11 to 1.30 of
// an estimate priced at the one-block rate at N from 2 to 32 Mi.
const TwoPassBlocksRate = "perm-twopass-blocks"

// BucketCallsRate is the key of the simple bucket sort's distributing
// calls a second in a machine's core rates: a rate of calls, not of
// operations. A call's cost beyond its keys' loop and its children, the
// mispredicted exit of that loop with it, is charged at it in place of
// its operations at the kernel's rate and the exit at the penalty.
// The kernel's own rate is timed at a size whose calls are few (2^10
// keys: one call of 64 buckets, then 64 of about 16 keys each), and a
// sort of 2^13 keys makes some 2500 calls of about two keys into two
// buckets at the bottom of its recursion. On the Zen 5 guest of
// docs/hierarchy.md such calls cost 9 to 11 ns, where their operations
// at the kernel's rate and the penalty gave 18.7, and the sort at 6Ki to
// 16Ki keys and in L2 ran at 0.80 to 0.90 of the estimate that charged
// them so.
const BucketCallsRate = "bucket-calls"

// twoPassBlocks is the two-pass product's blocks: N elements in blocks
// of C/2 bytes.
func twoPassBlocks(s shape) float64 {
	blockLen := math.Max(1, math.Floor(s.c/2/s.w))
	return math.Ceil(s.n / blockLen)
}

func twoPassTraffic(s shape, l lvl) Traffic {
	m := l.of(s.n * s.w)
	blocks := twoPassBlocks(s)
	var t Traffic
	// X read twice, Z filled and written back, D read twice: streams.
	t.Seq += 2*m + 2*m + 2*m
	// D written in phase I and read in phase III through one stream per
	// block, and written back twice (phases I and II). A machine whose
	// stream curve reaches the blocks' count has them priced as streams
	// here and their excess from the curve (manyStreams); else they are
	// random past the streams the core keeps.
	if _, curve := s.m.StreamExcess(blocks); !curve && blocks+1 > s.streams {
		t.Rand += 2 * m
	} else {
		t.Seq += 2 * m
	}
	t.Seq += 2 * m // the write-backs
	// Phase II reads Y within a block: Y's lines come in once where a
	// block's share of Y fits (with the D stream beside it), else each
	// read hits with the chance that its line is held. A block's share
	// is at most Y: with fewer than a block's elements (N below C/2/w,
	// the block of the machine's last cache) the reads stay within Y.
	seg := twoPassSegment(s)
	f := math.Min(1, l.size/seg)
	t.Rand += f*m + (1-f)*s.n
	return t
}

func matmulTraffic(s shape, l lvl) Traffic {
	n, w := s.n, s.w
	var t Traffic
	// P is read a row at a time, R written once: streams.
	t.Seq += l.of(n*n*w) + 2*l.of(n*n*w)
	switch {
	case qFits(s, l):
		// Q fits beside a row of P and of R: it comes in once.
		t.Seq += l.of(n * n * w)
	case n <= columnHeld(s, l):
		// Regime (1): a strip of columns (n lines) stays while the row is
		// swept; every line of Q comes in once per row of P.
		t.Rand += n * l.of(n*n*w)
	default:
		// Regime (2): every access to Q misses.
		t.Rand += n * n * n
	}
	return t
}

// columnSets is the share of a level's sets that the lines of a column
// can take, its rows row bytes apart: a level finds a line's set from
// the line's place in its 4 KiB page (and, in a level larger than a page
// a way, from bits above it, which the physical pages scatter), so the
// column's lines take as many of the page's line places as the rows'
// offsets in the page do, page/gcd(page, row) when that is fewer than the
// page's lines. Rows of 4 KiB (n = 1024 of 4-byte words) put the whole
// column in one place: one set in 64 holds it, and a column the size
// assumes stays in L2 misses there. On the AMD guest of
// docs/hierarchy.md the product ran 1.24, 1.49, 2.89, 2.02 and 3.34 times
// the estimate that assumed every set at n = 256, 512, 1024, 1536 and
// 2048 (rows in 4, 2, 1, 2 and 1 places), and 0.90 to 1.07 at n = 384
// and 768 (8 and 4 places, the column fitting still).
func columnSets(row, line float64) float64 {
	return columnPlaces(row, line) / (walkPage / line)
}

// columnPlaces is the line places of a page the column's lines take
// (columnSets), page/line when the rows claim none.
func columnPlaces(row, line float64) float64 {
	places := walkPage / line
	if !(row > 0) || row != math.Trunc(row) || places < 1 || row > 1<<50 {
		return places
	}
	g := gcd(uint64(walkPage), uint64(row))
	return math.Min(places, walkPage/float64(g))
}

// qFits says Q fits in level l beside a row of P and of R.
func qFits(s shape, l lvl) bool { return s.n*s.n*s.w+2*s.n*s.w <= l.size }

// columnHeld is how many of the column's lines level l holds while a
// row is swept: its lines less a row's, in the line places the column
// takes (columnSets).
func columnHeld(s shape, l lvl) float64 {
	row := s.n * s.w
	return (l.lines - math.Ceil(row/l.line)) * columnSets(row, l.line)
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// matmulCrowded is the product's reads of Q, n³, when the column's rows
// put its lines in one place of their pages (rows a multiple of 4 KiB)
// and the first level l holds fewer of them than the column has (its
// lines less a row's, over the places): every read of Q then misses l
// into the one set the column has there. 0 otherwise, and where Q fits
// in l with a row of P and R.
//
// Measured on the AMD guest of docs/hierarchy.md (2026-11-29), reads of
// lines 4 KiB apart took 1.7 to 1.9 ns beyond an L1 hit whether 32 or
// 1024 of them went round (L2 or L3 holding them), and reads 2 KiB apart
// (two places) 0.35 to 0.45: the queue is one set's, so only one place
// is charged it; two places the levels' fills price (columnSets).
func matmulCrowded(s shape, l lvl) float64 {
	if qFits(s, l) || columnPlaces(s.n*s.w, l.line) != 1 || s.n <= columnHeld(s, l) {
		return 0
	}
	return s.n * s.n * s.n
}

// matmulColumn: the product's n³ steps each read Q down a column of n
// lines, rows n·w bytes apart.
func matmulColumn(s shape, first lvl) (steps, places, lines float64) {
	return s.n * s.n * s.n, columnPlaces(s.n*s.w, first.line), s.n
}

// matmulWalks: each of the n³ reads of Q steps a row, n·w bytes, down a
// column, and the column's walk comes round again for the next j. Its n
// reads lie one to a page when a row is a page or longer, and share
// pages page/(n·w) to one when shorter: either way the cycle has
// n·min(page, n·w)/page pages, as many as a walk of one line a page
// across n·min(page, n·w) bytes. Only a read that enters a page looks
// for its translation (the reads after it on the same page find the one
// it left in the first-level TLB), so n³·min(1, n·w/page) reads walk.
// (Charged on all n³, the product of n = 344, rows of 1376 bytes, came
// out at 0.73 of the estimate in Go and 0.67 in C on the AMD guest, the
// estimate's translation a third of it; at n = 1112 and 1960, rows
// longer than a page, the count is the same either way.)
func matmulWalks(s shape) (reads, span float64) {
	row := s.n * s.w
	return s.n * s.n * s.n * math.Min(1, row/walkPage), s.n * math.Min(walkPage, row)
}

// walkPage is the page the machine's walk was measured with.
const walkPage = machine.WalkPage

// passesAbove is the recursion levels whose subproblems of fp(N) bytes,
// halving each level, exceed the level, plus the one that reads the
// first subproblem that fits: log2(fp/S) + 1 (the MBRAM paper App. a).
func passesAbove(fp float64, l lvl) float64 {
	if fp <= l.size {
		return 0
	}
	return math.Log2(fp/l.size) + 1
}

func quicksortTraffic(s shape, l lvl) Traffic {
	nw := s.n * s.w
	// Each pass reads every line and writes back the swapped ones
	// (nearly all: a line of 16 keys escapes a swap with chance
	// (5/6)^16 ≈ 5 %).
	p := passesAbove(nw, l)
	return Traffic{Seq: 2 * l.of(nw) * p}
}

func mergesortTraffic(s shape, l lvl) Traffic {
	nw := s.n * s.w
	// A merge level reads N keys and writes N into the other array; the
	// copy before the first level is one more such pass.
	p := passesAbove(2*nw, l) + 1
	return Traffic{Seq: 3 * l.of(nw) * p}
}

// heapSteps is the steps of the walks down the heap: N − 1 walks from
// the root to near the bottom (log2 N − 1 steps) and the build, about one
// step per element.
func heapSteps(s shape) float64 { return s.n*math.Max(lg(s.n)-1, 0) + s.n }

// heapStepOps is a step's work: two loads of the children, compare them,
// pick one, compare with the value, store it up, loop.
const heapStepOps = 12

func heapWork(s shape) Work {
	st := heapSteps(s)
	// The choice of the child is a coin toss (half mispredicted); the
	// stop test fails until the walk ends, once per walk.
	return Work{Ops: heapStepOps * st, Mispredicts: st/2 + s.n}
}

// HeapStepSeconds is what the model charges a step of a walk down a heap
// whose lines are in the first level: its work at heapsort's core rate,
// which holds the step's mispredictions, or at the compute rate with
// half a misprediction; 0 when m gives neither rate.
func HeapStepSeconds(m machine.Machine) float64 {
	if r := m.CoreRates["heapsort"]; r > 0 {
		return heapStepOps / r
	}
	if m.ComputeRate > 0 {
		return heapStepOps/m.ComputeRate + m.M/2
	}
	return 0
}

// heapLinesAhead is how many lines of a walk down the heap are fetched
// at once: the descendants of node i k levels down are the 2^k
// consecutive keys from 2^k·i + 2^k − 1, so for k = log2(B/w) they fill
// one line, whose address is known k steps before the walk gets there,
// whichever way it turns on the way (a guess on a wrong path loads the
// same line). The walk so has k lines in flight, and each waits for a
// k-th of the latency step. (Measured here: heapsort at 2^22 and 2^23
// keys ran at 0.80 and 0.68 of the prediction that charged half the
// step, which assumed only speculation on the coin-toss branch.) How far
// ahead a core gets is its own: a machine that says how many lines its
// walks keep in flight (Machine.WalkInFlight, read off a walk down a heap
// by calibration) has that many, more than log2(B/w) too (a guess finds
// the line five depths down half the time), and its walks are charged
// as the walk was read: the first line past each level in full
// (walkExposed), over the sort's shrinking heap (sortWalkExposed).
func heapLinesAhead(s shape, l lvl) float64 {
	f := s.m.WalkInFlight
	if f <= 0 {
		return math.Max(math.Log2(l.line/s.w), 1)
	}
	k := math.Max(f, 1)
	d := heapDepthsPast(s.n, s.w, l.size)
	if g := sortWalkExposed(d, k); g > 0 {
		return math.Max(1, shrinkingDepths(d)/g)
	}
	return k
}

func heapTraffic(s shape, l lvl) Traffic {
	// The top log2(S/w) levels of the heap fill the level and stay
	// (each is touched by every walk); each deeper step of a walk loads
	// its children's line, at an address that depended on the step
	// before, and leaves the parent's line dirty: a write-back, at β1.
	miss := heapDepthsPast(s.n, s.w, l.size)
	if s.m.WalkInFlight > 0 {
		miss = shrinkingDepths(miss)
	}
	return Traffic{Dep: s.n * miss, Seq: s.n * miss}
}

// heapDepthsPast is the depths of a heap of n keys of w bytes that a walk
// to the bottom finds past a level of size bytes: the top log2(size/w)
// fill the level and stay, and every one below misses.
func heapDepthsPast(n, w, size float64) float64 {
	return math.Max(0, math.Min(lg(n), lg(n)-math.Log2(size/w)))
}

// walkExposed is the latency steps a walk waits for when d of its depths
// lie past a level and k lines are in flight: the first line past the
// level in full (the walk reaches it through the cached depths above in
// a few steps, too soon for it to have been asked for early), and each
// one below it a k-th. A walk whose last depth lies only partly past the
// level (d < 1) waits for it that part of the time.
func walkExposed(d, k float64) float64 {
	if d <= 1 {
		return math.Max(d, 0)
	}
	return 1 + (d-1)/k
}

// sortWalkExposed is walkExposed averaged over heapsort's walks, whose
// heap shrinks from n keys to none: the heap has u·n keys with u uniform
// on (0, 1], so a walk finds d + log2 u depths past the level. With
// a = ln 2 the average is a·2^−d ∫₀^d g(x)·2^x dx, g = walkExposed.
func sortWalkExposed(d, k float64) float64 {
	if d <= 0 {
		return 0
	}
	if d <= 1 {
		return shrinkingDepths(d) // g(x) = x there
	}
	const a = math.Ln2
	// ∫ x·2^x dx = 2^x (x/a − 1/a²); ∫ 2^x dx = 2^x/a.
	xint := func(x float64) float64 { return math.Exp2(x) * (x/a - 1/(a*a)) }
	in := xint(1) - xint(0) + // the part past the level
		(1-1/k)*(math.Exp2(d)-2)/a + (xint(d)-xint(1))/k
	return a * math.Exp2(-d) * in
}

// heapMemLatency is memory's latency for heapsort's lines past the last
// level l, on a machine with a measured walk (WalkInFlight) and a latency
// curve. The sort's heap shrinks from n keys to none, and a walk waits
// for the latency at its own heap's span, not the whole array's: the
// curve rises with the span by the page walks a larger span's
// translations take (176 ns at 64 MiB to 270 ns at 256 MiB on the Zen 5
// guest of docs/hierarchy.md). So the curve is read at each heap's span
// and averaged with the weights sortWalkExposed gives the walks: a heap
// of u·n keys lies x = d + log2 u depths past l, and its walks wait for
// walkExposed(x) lines, so the weight of x is walkExposed(x)·2^x. The
// span is kept at least the smaller of the data's and twice the level's
// size: nearer the level the curve still climbs the level's step, where
// a chase hits the level part of the time, which the depths past the
// level already count. It returns ok false where the curve at the data's
// span stands (no walk measured, no curve, no depth past l).
func heapMemLatency(s shape, l lvl) (float64, bool) {
	m := s.m
	d := heapDepthsPast(s.n, s.w, l.size)
	if m.WalkInFlight <= 0 || len(m.MemLatencyCurve) < 2 || d <= 0 || len(m.Levels) == 0 {
		return 0, false
	}
	k := math.Max(m.WalkInFlight, 1)
	span := s.n * s.w
	least := math.Min(span, 2*float64(m.Levels[len(m.Levels)-1].Size))
	// The midpoint rule over x in (0, d): the integrand is smooth but for
	// walkExposed's corner at x = 1 and the curve's points, which 32
	// steps resolve within a tenth of a per cent (TestHeapMemLatency).
	const steps = 32
	var sum, weights float64
	for j := range steps {
		x := (float64(j) + 0.5) * d / steps
		wt := walkExposed(x, k) * math.Exp2(x)
		sum += wt * m.MemLatencyAt(math.Max(span*math.Exp2(x-d), least))
		weights += wt
	}
	return sum / weights, true
}

// shrinkingDepths is the depths past a level averaged over heapsort's
// walks (sortWalkExposed with every depth counted): d − (1 − 2^−d)/ln 2.
func shrinkingDepths(d float64) float64 {
	if d <= 0 {
		return 0
	}
	return d - (1-math.Exp2(-d))/math.Ln2
}

// scatter is a distribution pass of n keys into b buckets over a level:
// read the source in a stream, write b streams (filled, and written back
// at β1), whose fills are random when b + 1 exceeds the streams the core
// keeps.
func scatter(s shape, l lvl, n, b float64) Traffic {
	m := l.of(n * s.w)
	t := Traffic{Seq: m + m} // the source, and the write-backs
	if b+1 > s.streams {
		t.Rand += m
	} else {
		t.Seq += m
	}
	return t
}

// branchCharged is the mispredictions e charges at the machine's penalty.
func branchCharged(e Estimate) float64 {
	mis := e.Work.CallMispredicts
	if e.CallRate > 0 {
		mis = 0 // in CallSeconds
	}
	if !e.BranchInRate {
		mis += e.Work.Mispredicts
	}
	return mis
}

// Predict is Model as an MBRAM-style breakdown: compute, branches, and a
// term per level that moves lines.
func Predict(m machine.Machine, kernelID string, p mbram.Params) (mbram.Breakdown, error) {
	e, err := Model(m, kernelID, p)
	if err != nil {
		return mbram.Breakdown{}, err
	}
	b := mbram.Breakdown{Kernel: kernelID, Seconds: e.Seconds, Regime: e.Description,
		NotBound: "the hierarchy model is an estimate, not a bound"}
	if !e.NoCompute {
		// With passes off the curve, Compute holds only the other work.
		ops, besides := e.Work.Ops, ""
		if e.Passes > 0 {
			ops, besides = math.Max(0, ops-e.PassOps), " (the work besides the passes' loops)"
		}
		if e.CallRate > 0 {
			ops, besides = math.Max(0, ops-e.Work.CallOps), " (the work besides the passes' loops and the calls)"
			if e.Passes == 0 {
				besides = " (the work besides the calls)"
			}
		}
		f := "ops/R = " + units.FormatCount(int64(ops)) + " / " + fmt.Sprintf("%.3g", e.Rate) + " per s" + besides
		switch {
		case e.RateKey == TwoPassBlocksRate:
			f += ", the kernel's own rate with several blocks (" + TwoPassBlocksRate + "), measured with its branch mispredictions"
		case e.RateKey != "":
			f += ", the machine's " + e.RateKey + " rate, measured with its branch mispredictions"
		case e.BranchInRate:
			f += ", the kernel's own rate, measured with its branch mispredictions"
		}
		b.Terms = append(b.Terms, mbram.Term{Name: "compute", Seconds: e.Compute, Formula: f})
	} else {
		b.Warnings = append(b.Warnings, "the machine has no compute rate: work other than memory traffic is not charged")
	}
	if e.Passes > 0 {
		at := ""
		if e.PassRate > 0 {
			at = fmt.Sprintf(" at %.3g per s, the %s kernel's rate, whose work is the same loop", e.PassRate, kernelForms[kernelID].loopKernel)
		}
		f := "each pass's loops at the longer of their work (" + units.FormatSeconds(e.PassWork) + " in all" + at + ") and the machine's distribution curve at the pass's size (" + units.FormatSeconds(e.PassCurve) + ")"
		if e.CurveLoops {
			f = "each pass's count and scatter loops at the machine's distribution curve at the pass's size, which times these loops"
			if e.PutLoop {
				f = "each pass's scatter loop at the machine's distribution curve of the simple sorts' put loop at the pass's size, which times this loop"
			}
		}
		few := fewestBuckets(kernelID, shape{n: float64(p.N), w: float64(p.W), b: float64(p.Buckets), m: m})
		if sc := streamScale(m, few); sc < 1 && !streamsFew(few, float64(StreamsOf(m))) {
			f += fmt.Sprintf("; the pass into %.0f buckets at the curve's time scaled by the machine's stream curve there, %.3g of its time into %d", few, sc, machine.CurveBuckets)
		}
		if few < machine.CurveBuckets && len(m.FewBuckets) > 0 {
			f += fmt.Sprintf("; the pass into %.0f buckets at least the machine's few-bucket curve there, where a key waits for the counter the key before bumped", few)
		}
		b.Terms = append(b.Terms, mbram.Term{Name: "distribution passes", Seconds: e.Passes, Formula: f})
	}
	if e.Translation > 0 {
		r, span := kernelForms[kernelID].walks(shape{n: float64(p.N), w: float64(p.W)})
		b.Terms = append(b.Terms, mbram.Term{Name: "address translation", Seconds: e.Translation,
			Formula: fmt.Sprintf("%.4g reads going round a cycle of %.0f pages", r, span/walkPage) + ", at the machine's page walk for that span (" + units.FormatSeconds(m.WalkAt(span)) + " a read)"})
	}
	if e.Gather > 0 {
		b.Terms = append(b.Terms, mbram.Term{Name: "random reads by index", Seconds: e.Gather,
			Formula: fmt.Sprintf("%.4g reads spread over %s take at least the machine's gather curve there (%s a read, %s in all: their loop, translation and the levels' hits), beyond the rest of the estimate, which runs beside them", e.SpreadReads, units.FormatSize(int64(e.SpreadSpan)), units.FormatSeconds(e.GatherRead), units.FormatSeconds(e.SpreadReads*e.GatherRead))})
	}
	if e.Spread > 0 {
		b.Terms = append(b.Terms, mbram.Term{Name: "address translation", Seconds: e.Spread,
			Formula: fmt.Sprintf("%.4g reads spread over %s: the page walks of the translation buffer's misses there (%s a read), less those the levels' random rates were measured with", e.SpreadReads, units.FormatSize(int64(e.SpreadSpan)), units.FormatSeconds(randomWalk(m, m.WalkReach(), e.SpreadSpan)))})
	}
	if e.Streaming > 0 {
		x := e.Streaming / e.StreamLines // Streaming > 0: lines too
		b.Terms = append(b.Terms, mbram.Term{Name: "many streams", Seconds: e.Streaming,
			Formula: fmt.Sprintf("%.4g lines through %.0f streams at once, at the machine's stream curve's excess over its fastest scatter there (%s a line)", e.StreamLines, e.StreamCount, units.FormatSeconds(x))})
	}
	if e.Column > 0 {
		b.Terms = append(b.Terms, mbram.Term{Name: "column loop", Seconds: e.Column,
			Formula: fmt.Sprintf("%.4g steps over a column of %s lines in %.0f of its pages' line places, at least the machine's column curve there (%s a step: the kernel's loop timed at that shape), beyond the rest of the estimate", e.ColumnSteps, units.FormatCount(p.N), e.ColumnPlaces, units.FormatSeconds(e.ColumnRead))})
	}
	if e.Crowded > 0 {
		b.Terms = append(b.Terms, mbram.Term{Name: "crowded column", Seconds: e.Crowded,
			Formula: fmt.Sprintf("%.4g reads of a column whose lines take one place of their pages, at least the machine's crowded read (%s) each, beyond what the levels' fills and the page walks charge them", e.CrowdedReads, units.FormatSeconds(m.CrowdedRead))})
	}
	if e.CallSeconds > 0 {
		b.Terms = append(b.Terms, mbram.Term{Name: "calls", Seconds: e.CallSeconds,
			Formula: fmt.Sprintf("%s distributing calls at the machine's %s rate (%.3g a second: what a call costs beyond its keys and its children, the mispredicted exit of its loop over its keys with it)", units.FormatCount(int64(e.Work.Calls)), kernelForms[kernelID].callsKey, e.CallRate)})
	}
	if mis := branchCharged(e); mis > 0 {
		f := "mispredictions·m = " + units.FormatCount(int64(mis)) + "·" + units.FormatSeconds(m.M)
		if e.Work.CallMispredicts > 0 && e.CallRate == 0 {
			f += ", of which " + units.FormatCount(int64(e.Work.CallMispredicts)) + " at the exits of the loops over buckets"
		}
		b.Terms = append(b.Terms, mbram.Term{Name: "branch mispredictions", Seconds: e.Branch, Formula: f})
	}
	levels := m.Hierarchy()
	if w := nearFit(e); w != "" {
		b.Warnings = append(b.Warnings, w)
	}
	// A machine with a column curve timed the product at its column's
	// shape: the places need no warning there.
	if len(m.ColumnCurve) == 0 {
		if w := fewPlaces(kernelID, p, levels, m.CrowdedRead > 0); w != "" {
			b.Warnings = append(b.Warnings, w)
		}
	}
	for i, le := range e.Levels {
		below := "memory"
		if i+1 < len(levels) {
			below = levels[i+1].Name
		}
		name := le.Level.Name + " ← " + below
		if le.Warm {
			b.Terms = append(b.Terms, mbram.Term{Name: name, Seconds: 0,
				Formula: "the data (" + units.FormatSize(e.Footprint) + ") fit in " + le.Level.Name + " (" + units.FormatSize(le.Level.Size) + "): no lines move"})
			continue
		}
		t := le.Traffic
		f := fmt.Sprintf("lines: %s sequential at %s, %s random at %s, %s dependent",
			units.FormatCount(int64(t.Seq)), units.FormatBandwidth(le.Level.Beta1),
			units.FormatCount(int64(t.Rand)), units.FormatBandwidth(le.Level.Beta2),
			units.FormatCount(int64(t.Dep)))
		if le.Overlapped {
			f = fmt.Sprintf("lines: %s sequential and %s random at %s a line beside the core's work, κ = %.3g of the shorter exposed; %s dependent",
				units.FormatCount(int64(t.Seq)), units.FormatCount(int64(t.Rand)), units.FormatSeconds(m.L1Fill), m.L1Exposed,
				units.FormatCount(int64(t.Dep)))
		}
		if i == len(e.Levels)-1 && e.MemLatency > 0 && t.Dep > 0 {
			f += ", memory's latency " + units.FormatSeconds(e.MemLatency)
			switch {
			case e.MemLatencyShrinks:
				f += " (its curve averaged over the heap's spans as the sort shrinks it from the data's " + units.FormatSize(e.Footprint) + ", walk by walk)"
			case len(m.MemLatencyCurve) >= 2:
				f += " (its curve at the data's " + units.FormatSize(e.Footprint) + ")"
			}
		}
		if le.Reach > 0 {
			f += fmt.Sprintf("; the dependent reads find %s of %s's %s, where a chase leaves it on the latency curve", units.FormatSize(int64(le.Reach)), le.Level.Name, units.FormatSize(le.Level.Size))
		}
		if le.Hidden > 0 {
			f += fmt.Sprintf("; %s of its %s hidden behind the same lines' slower steps at other levels (a line's transfers overlap, ω = %.3g)",
				units.FormatSeconds(le.Hidden), units.FormatSeconds(le.Seconds+le.Hidden), m.LevelOverlap)
		}
		b.Terms = append(b.Terms, mbram.Term{Name: name, Seconds: le.Seconds, Formula: f})
	}
	return b, nil
}

// nearFitReach is how many times a level's size the data may be for
// nearFit to speak: from there on the share a real cache keeps of a
// cycle through them is small (a sixth at most for one that replaces at
// random).
const nearFitReach = 2

// NearFit is a level whose size an estimate's data exceed by a little
// (Estimate.NearFit).
type NearFit struct {
	Level string `json:"level"` // the level's name
	Size  int64  `json:"size"`  // its bytes
	// Times is the data's footprint over Size.
	Times float64 `json:"times"`
	// Floor is the estimate without the level's seconds: the time by the
	// model if the level held the data, the least a repeated run takes.
	Floor float64 `json:"floor_seconds"`
}

// NearFit is the first of e's levels that its data are a little larger
// than (at most nearFitReach times) and whose fills are a tenth of the
// estimate or more; ok is false where there is none. The levels replace
// LRU, which keeps none of a cycle longer than a level between runs, and
// the model charges every line of it; a real cache keeps part of it (one
// that replaces at random the share h of h = e^(−a·(1 − h)) for data a
// times its size: 0.79 at a = 1.125, 0.42 at 1.5, 0.20 at 2), so
// repeated runs there take less. The permutation product on the
// development guest ran at 0.63 and 0.68 of the estimate with its arrays
// 1.125 and 1.5 times L2 (docs/hierarchy.md).
func (e Estimate) NearFit() (NearFit, bool) {
	for _, le := range e.Levels {
		a := float64(e.Footprint) / float64(le.Level.Size)
		if le.Warm || a > nearFitReach || !(le.Seconds > 0) || le.Seconds < 0.1*e.Seconds {
			continue
		}
		return NearFit{Level: le.Level.Name, Size: le.Level.Size, Times: a, Floor: e.Seconds - le.Seconds}, true
	}
	return NearFit{}, false
}

// nearFit is the warning Predict gives for e.NearFit, "" where there is
// none.
func nearFit(e Estimate) string {
	nf, ok := e.NearFit()
	if !ok {
		return ""
	}
	return fmt.Sprintf("the data (%s) are %.3g times %s (%s): the model's levels replace the least recently used line, which keeps none of a cycle through them between runs; a real cache keeps part, so a repeated run can take less, down to %s if %s held them all",
		units.FormatSize(e.Footprint), nf.Times, nf.Level, units.FormatSize(nf.Size), units.FormatSeconds(nf.Floor), nf.Level)
}

// fewPlaces warns where the matrix product's column takes one or two of
// a page's line places (columnSets) and so misses a level that would
// hold it were every set open to it: the estimate charges those misses
// at the level's random rate, which is measured with reads over every
// set, but misses crowded into a few sets are fewer at once. On the AMD
// guest of docs/hierarchy.md that left the product at n = 1024, 1536 and
// 2048 at 2.0, 1.4 and 3.2 times the estimate; at n = 512 the level
// holds all but one of the column's lines and it ran at 0.96, so the
// warning waits until the level holds under half.
//
// A machine with a crowded read prices one place (matmulCrowded), and
// there it warns only of a column of more than twice the lines the read
// was timed over (machine.CrowdedLines): reads 4 KiB apart on the AMD
// guest took 1.8 ns beyond a hit over 512 and 2.0 over 1024 lines, but
// 3.9 over 2048, and the product at n = 2048 ran 1.75 times the
// estimate that charged 1.9.
func fewPlaces(kernelID string, p mbram.Params, levels []machine.Level, crowdedPriced bool) string {
	if kernelID != "matmul" || len(levels) == 0 {
		return ""
	}
	n, w := float64(p.N), float64(p.W)
	s := shape{n: n, w: w}
	row := n * w
	avoid := ""
	if line := float64(levels[0].Line); columnPlaces((n-1)*w, line) > 2 && columnPlaces((n+1)*w, line) > 2 {
		avoid = fmt.Sprintf(" (n = %.0f or %.0f spreads the column over more places)", n-1, n+1)
	}
	if first := lvlOf(levels[0]); crowdedPriced && columnPlaces(row, first.line) == 1 && !qFits(s, first) {
		if n <= 2*machine.CrowdedLines {
			return ""
		}
		return fmt.Sprintf("rows of %s put the column's %.0f lines in one place of their pages: the estimate charges each read of it at least the machine's crowded read, which was timed over %d such lines; over more the levels below lose some of them too, and the run can take up to twice as long%s",
			units.FormatSize(int64(row)), n, machine.CrowdedLines, avoid)
	}
	for _, level := range levels {
		l := lvlOf(level)
		places := columnPlaces(row, l.line)
		if places > 2 || qFits(s, l) {
			continue
		}
		held := math.Floor(columnHeld(s, l))
		if n+math.Ceil(row/l.line) > l.lines || held >= n/2 {
			continue
		}
		return fmt.Sprintf("rows of %s put the column's %.0f lines in %.0f of a page's %.0f line places, so %s holds %.0f of them where its size would hold all: the estimate charges their misses at the random rate of filling %s, but misses crowded into so few sets overlap less, and the run can take some times longer%s",
			units.FormatSize(int64(row)), n, places, walkPage/l.line, level.Name, held, level.Name, avoid)
	}
	return ""
}

// WalkInFlightOf reads Machine.WalkInFlight off a timed walk down a heap:
// a complete heap of keys 4-byte keys, each walk from the root to a leaf
// in steps steps, taking perWalk seconds, where a step of the same walk
// in the first level takes perStep. The model charges such a walk its
// steps at perStep and, for each level below the first, its depths past
// the level's share of the heap (log2 of the heap's bytes over the
// level's, as heapTraffic has them) a write-back at the level's β1 and
// the dependent lines walkExposed has: the first past the level at the
// whole latency step, the ones below it at the step shared by the lines
// in flight; for the first level the dependent lines alone, its
// write-backs going beside the work. The lines in flight are what makes
// that the measured time.
// memLatency, when above 0, is memory's latency at the heap's span as
// timed beside the walk, in place of the machine's (its latency curve at
// that span): a host's memory that slows between the curve and the walk
// would otherwise read as fewer lines in flight. It returns false when
// the levels give no latency step below a first line past them, or the
// walk is no slower than its steps, write-backs and first lines.
func WalkInFlightOf(m machine.Machine, keys, steps, perWalk, perStep, memLatency float64) (float64, bool) {
	const w = 4
	span := keys * w
	levels := m.Levels
	// first: the seconds of each level's first line past it, waited for
	// in full; below: the latency steps of the lines below those, which
	// wait a k-th each (walkExposed); seq: the write-backs' seconds.
	first, below, seq := 0.0, 0.0, 0.0
	for i, l := range levels {
		miss := heapDepthsPast(keys, w, chainLvl(m, levels, i).size)
		next := nextLatency(m, levels, i, span)
		if i == len(levels)-1 && memLatency > 0 {
			next = memLatency
		}
		if l.Latency > 0 && next > l.Latency {
			first += math.Min(miss, 1) * (next - l.Latency)
			below += math.Max(miss-1, 0) * (next - l.Latency)
		}
		if i > 0 {
			seq += miss * float64(l.Line) / l.Beta1
		}
	}
	extra := perWalk - steps*perStep - seq - first
	if !(below > 0 && extra > 0) {
		return 0, false
	}
	return below / extra, true
}
