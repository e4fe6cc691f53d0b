package hier

import "memwall/engine/machine"

// LevelTime is the time charged to one level's traffic, in seconds.
type LevelTime struct {
	// Sequential is the sequential fills and all write-backs at line/β1.
	Sequential float64 `json:"sequential"`
	// Random is the other fills at line/β2.
	Random float64 `json:"random"`
	// Latency is the last level's dependent random fills at the memory
	// latency each, when it is given (they are then not in Random).
	Latency float64 `json:"latency"`
	Seconds float64 `json:"seconds"`
	// Overlapped says Sequential and Random are what the level's lines
	// add to the compute time beside which they run (Config.L1Fill),
	// shared between the two by their lines.
	Overlapped bool `json:"overlapped,omitempty"`
	// Hidden is what the level's independent lines hide behind the same
	// lines' slower steps at other levels on a machine whose levels'
	// transfers overlap (Config.LevelOverlap, HideLevels), taken off
	// Sequential and Random by their shares.
	Hidden float64 `json:"hidden,omitempty"`
}

// LevelResult is one level's counts and time.
type LevelResult struct {
	Level  machine.Level `json:"level"`
	Counts LevelCounts   `json:"counts"`
	Time   LevelTime     `json:"time"`
}

// Result is a simulated running time with its breakdown by level.
type Result struct {
	Reads     int64         `json:"reads"`
	Writes    int64         `json:"writes"`
	Dependent int64         `json:"dependent"`
	Ops       int64         `json:"ops"`
	Levels    []LevelResult `json:"levels"`
	// Compute is Ops at the compute rate (0 when it is not given).
	Compute float64 `json:"compute"`
	// Mispredictions are the run's mispredicted branches, which the
	// branch predictor of engine/sim counts, and Branch their time at
	// the machine's penalty (RunResult).
	Mispredictions int64   `json:"mispredictions"`
	Branch         float64 `json:"branch_seconds"`
	Seconds        float64 `json:"seconds"`
	// Note says what the time leaves out, when something is.
	Note string `json:"note,omitempty"`
}

// Memory is the levels' time.
func (r Result) Memory() float64 {
	t := 0.0
	for _, l := range r.Levels {
		t += l.Time.Seconds
	}
	return t
}

// Notes of a result whose time leaves out the run's work: its
// operations were not counted, or the machine gives no compute rate to
// charge them at.
const (
	NoComputeNote = "no compute time: the run's operations are not counted, so the time is its memory traffic and branches"
	NoRateNote    = "no compute time: the machine gives no compute rate, so the time is the run's memory traffic and branches"
)

// RunResult is the result of a whole run, after Finish: the levels, the
// operations given to Compute at the compute rate, the run's
// mispredicted branches at penalty seconds each (the hierarchy simulator
// sees no branches; engine/sim's predictor counts them, which the caches
// do not change) and, when the run gave no operations or the machine no
// rate, a note that its time leaves the work out.
func (s *Sim) RunResult(mispredictions int64, penalty float64) Result {
	r := s.Result()
	r.Mispredictions, r.Branch = mispredictions, float64(mispredictions)*penalty
	r.Seconds += r.Branch
	switch {
	case s.ops == 0:
		r.Note = NoComputeNote
	case s.cfg.ComputeRate == 0:
		r.Note = NoRateNote
	}
	return r
}

// TraceNote is the note of a trace file's run (TraceResult).
const TraceNote = "a trace file: the time is its memory traffic alone (a trace records no operations and no branches), and every random fill is charged as independent, since a trace does not say which loads wait for the one before"

// TraceResult finishes a replayed trace file that went through s: the
// write-backs at the end and the levels' time, with TraceNote. A trace
// gives the levels' traffic and nothing else, so there is no compute
// time and no misprediction to charge.
func (s *Sim) TraceResult() Result {
	s.Finish()
	r := s.RunResult(0, 0)
	r.Note = TraceNote
	return r
}

// Time charges one level's counts (see doc.go): last says the level is
// the last one, filled from memory, and span is the bytes the run's
// reads go over (Sim.Footprint), which memory's latency is read at when
// the configuration has its curve.
func (c Config) Time(l machine.Level, n LevelCounts, last bool, span float64) LevelTime {
	lat, mem := int64(0), 0.0
	if last {
		mem = machine.Machine{MemLatency: c.MemLatency, MemLatencyCurve: c.MemLatencyCurve}.MemLatencyAt(span)
	}
	if mem > 0 {
		lat = n.DependentRandFills
	}
	var t LevelTime
	t.Sequential, t.Random = lineSeconds(l, float64(n.SeqFills), float64(n.RandFills-lat), float64(n.Writebacks))
	t.Latency = float64(lat) * mem
	t.Seconds = t.Sequential + t.Random + t.Latency
	return t
}

// lineSeconds charges one level's lines, the simulator's counts and the
// permutation product's form alike: sequential fills and every
// write-back at line/β1, random fills at line/β2. A write-back is a
// posted write: no load waits for it, so it costs the level's bandwidth
// wherever its line lies; β2 is what a fill from a random place costs a
// core that waits for it.
func lineSeconds(l machine.Level, seqFills, randFills, writebacks float64) (sequential, random float64) {
	b := float64(l.Line)
	return (seqFills + writebacks) * b / l.Beta1, randFills * b / l.Beta2
}

// Result is the breakdown of the run so far; call Finish first to count
// the final write-backs.
func (s *Sim) Result() Result {
	r := Result{Reads: s.reads, Writes: s.writes, Dependent: s.deps, Ops: s.ops}
	lc := s.Levels()
	span := float64(s.Footprint())
	for i, l := range s.cfg.Levels {
		t := s.cfg.Time(l, lc[i], i == len(lc)-1, span)
		r.Levels = append(r.Levels, LevelResult{Level: l, Counts: lc[i], Time: t})
	}
	if s.cfg.ComputeRate > 0 {
		r.Compute = float64(s.ops) / s.cfg.ComputeRate
	}
	if c := s.cfg; c.L1Fill > 0 && c.L1Exposed > 0 && len(r.Levels) > 0 {
		r.Levels[0].overlap(r.Compute, c.L1Fill, c.L1Exposed)
	}
	parts := make([]LevelPart, len(r.Levels))
	for i := range r.Levels {
		parts[i] = r.Levels[i].part()
	}
	for i, h := range HideLevels(parts, s.cfg.LevelOverlap) {
		r.Levels[i].hide(h)
	}
	// The levels' times hold every change to them, so Seconds is exactly
	// Memory plus Compute.
	r.Seconds = r.Memory() + r.Compute
	return r
}

// dependentRandom is the share of Random that the level's dependent
// fills take: line/β2 each when the latency does not charge them.
func (lr LevelResult) dependentRandom() float64 {
	if lr.Time.Latency > 0 {
		return 0
	}
	return float64(lr.Counts.DependentRandFills) * float64(lr.Level.Line) / lr.Level.Beta2
}

// part is the level's independent lines as HideLevels reads them.
func (lr LevelResult) part() LevelPart {
	n := lr.Counts
	return LevelPart{
		Seq: lr.Time.Sequential, SeqLines: float64(n.SeqFills + n.Writebacks),
		Rand: lr.Time.Random - lr.dependentRandom(), RandLines: float64(n.RandFills - n.DependentRandFills),
	}
}

// independent is the seconds of the level's lines that no load waits
// for: its sequential and independent random fills and its write-backs.
func (lr LevelResult) independent() float64 {
	return lr.Time.Sequential + lr.Time.Random - lr.dependentRandom()
}

// hide takes h seconds off the level's independent lines, from
// Sequential and Random by their shares.
func (lr *LevelResult) hide(h float64) {
	ind := lr.independent()
	if !(h > 0) || !(ind > 0) {
		return
	}
	t, dep := &lr.Time, lr.dependentRandom()
	keep := max(0, 1-h/ind) // no time below zero by rounding
	t.Sequential *= keep
	t.Random = (t.Random-dep)*keep + dep
	t.Seconds = t.Sequential + t.Random + t.Latency
	t.Hidden = h
}

// overlap charges the level's independent lines beside compute seconds
// of work, fill seconds a line, with the share exposed of the shorter
// not hidden (Config.L1Fill). Its dependent random fills wait for their
// loads: they keep their charge, the latency on the last level when it is
// given, else line/β2 (dependentRandom).
func (lr *LevelResult) overlap(compute, fill, exposed float64) {
	t, n := &lr.Time, lr.Counts
	dep := float64(n.DependentRandFills)
	seq, rnd := float64(n.SeqFills+n.Writebacks), float64(n.RandFills)-dep
	lines := seq + rnd
	if !(lines > 0) {
		return
	}
	add := Overlap(compute, lines*fill, exposed) - compute
	t.Sequential, t.Random = add*seq/lines, add*rnd/lines+lr.dependentRandom()
	t.Seconds = t.Sequential + t.Random + t.Latency
	t.Overlapped = true
}
