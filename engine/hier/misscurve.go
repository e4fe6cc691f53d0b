package hier

import (
	"cmp"
	"math"
	"slices"

	"memwall/engine/machine"
)

// CurvePoint is the misses of a fully associative LRU cache of Lines lines
// (Bytes bytes) over a whole run.
type CurvePoint struct {
	Lines  int64 `json:"lines"`
	Bytes  int64 `json:"bytes"`
	Misses int64 `json:"misses"`
}

// MissCurve is a Curve sampled for a chart or a table: the misses at
// perDoubling cache sizes a doubling, from one line to the smallest cache
// that misses only the first accesses.
type MissCurve struct {
	Line     int64        `json:"line"`
	Accesses int64        `json:"accesses"`
	Cold     int64        `json:"cold"`
	Points   []CurvePoint `json:"points"`
}

// MaxPerDoubling bounds Sample's points a doubling.
const MaxPerDoubling = 16

// Sample samples the curve at perDoubling sizes a doubling (1 to
// MaxPerDoubling; out of range, 4), each rounded to whole lines and taken
// once, up to len(Hist) lines, one more than the run's largest stack
// distance, where the curve reaches its floor, the cold misses; and at
// the sizes in lines of also (a machine's levels), whatever they are. A
// run of no accesses has no points. It reads Hist once from its end, so a
// curve over millions of lines samples in one pass.
func (c Curve) Sample(perDoubling int, also ...int64) MissCurve {
	if perDoubling < 1 || perDoubling > MaxPerDoubling {
		perDoubling = 4
	}
	out := MissCurve{Line: c.Line, Accesses: c.Accesses, Cold: c.Cold}
	end := int64(len(c.Hist))
	if c.Accesses == 0 {
		return out
	}
	sizes := []int64{max(end, 1)}
	for i := 0; ; i++ {
		l := int64(math.Round(math.Exp2(float64(i) / float64(perDoubling))))
		if l >= end {
			break
		}
		sizes = append(sizes, l)
	}
	for _, l := range also {
		sizes = append(sizes, max(l, 1))
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	// misses(l) = Cold + Σ Hist[d] for d ≥ l, summed from the end down.
	out.Points = make([]CurvePoint, len(sizes))
	tail, d := int64(0), end
	for i := len(sizes) - 1; i >= 0; i-- {
		for d > sizes[i] {
			d--
			tail += c.Hist[d]
		}
		out.Points[i] = CurvePoint{Lines: sizes[i], Bytes: sizes[i] * c.Line, Misses: c.Cold + tail}
	}
	return out
}

// At is the misses at a cache of lines lines, when the curve was sampled
// there (Sample's also), and false otherwise.
func (mc MissCurve) At(lines int64) (int64, bool) {
	i, ok := slices.BinarySearchFunc(mc.Points, lines, func(p CurvePoint, l int64) int { return cmp.Compare(p.Lines, l) })
	if !ok {
		return 0, false
	}
	return mc.Points[i].Misses, true
}

// levelLines is the sizes in lines of the levels of lv with line bytes a
// line, for Sample's also.
func levelLines(lv []machine.Level, line int64) []int64 {
	var out []int64
	for _, l := range lv {
		if l.Line == line {
			out = append(out, l.Size/l.Line)
		}
	}
	return out
}

// MissCurves samples each of s's curves (Curves) at perDoubling sizes a
// doubling and at the sizes of s's levels of its line size: what a page,
// the CLI and a program's run show. Nil unless s keeps the curves.
func (s *Sim) MissCurves(perDoubling int) []MissCurve {
	var out []MissCurve
	for _, c := range s.Curves() {
		out = append(out, c.Sample(perDoubling, levelLines(s.cfg.Levels, c.Line)...))
	}
	return out
}

// NewForRun is the hierarchy simulator a run on m needs, the one place
// the pages, the CLI and the language decide it: with the miss curve when
// curves asks for it (NewWithCurves, on any machine), else NewForLevels
// (nil for a machine without levels).
func NewForRun(m machine.Machine, curves bool) (*Sim, error) {
	if curves {
		return NewWithCurves(m)
	}
	return NewForLevels(m)
}

// NewWithCurves is a simulator of m's hierarchy that also keeps the miss
// curve (Config.Curves), for any machine: one of the MBRAM paper's six
// numbers is the one level of its cache (machine.Machine.Hierarchy).
func NewWithCurves(m machine.Machine) (*Sim, error) {
	c := ConfigFor(m)
	c.Curves = true
	return New(c)
}
