package machine

import (
	"iter"
	"math"
)

// ColumnPoint is one point of a machine's column curve: the matrix
// product's own inner loop (a row of P against a column of Q, its sum
// stored, then the next column) timed over columns of Lines lines whose
// rows put them in Places line places of their 4 KiB pages, in seconds a
// step of the loop (a read of the row, a read of the column, a multiply
// and an add).
//
// A level finds a line's set partly from the line's place in its page,
// so a column whose rows are a multiple of 2 or 4 KiB keeps its lines in
// a few sets of every level, and what that costs depends on the core:
// on the AMD Zen 4 guest of docs/hierarchy.md a read took some 1.8 ns
// beyond a first-level hit at one place and 0.35 to 0.45 at two; on a
// Zen 5 guest the loop took 2.2 ns a step at one place, 1.3 at two and
// 0.85 at four (0.42 with the column in the first level), and 3.3 and
// 6.4 ns at one place once 1024 and 2048 lines went round. A curve timed
// on the loop itself prices the product's reads at its shape on any core.
type ColumnPoint struct {
	Places int     `json:"places"`
	Lines  int64   `json:"lines"`
	Read   float64 `json:"read"`
}

// MaxColumnPoints bounds the points of a column curve, and
// MaxColumnLines a point's lines.
const (
	MaxColumnPoints = 128
	MaxColumnLines  = 1 << 24
)

// ValidateColumnCurve checks a column curve: none, or up to
// MaxColumnPoints points ordered by places (a power of two from 1 to
// 64), then by lines (1 to MaxColumnLines, increasing within a place
// count), with times above 0 and up to 1 µs a step. Errors name the point
// and field, as column_curve[3].read.
func ValidateColumnCurve(ps []ColumnPoint) Errors {
	var es Errors
	add := es.Add
	if len(ps) > MaxColumnPoints {
		add("column_curve", "a column curve has at most %d points; got %d", MaxColumnPoints, len(ps))
		return es
	}
	for i, p := range ps {
		at := func(field string) string { return fieldAt("column_curve", i, field) }
		switch {
		case p.Places < 1 || p.Places > MaxColumnPlaces || p.Places&(p.Places-1) != 0:
			add(at("places"), "a point's places must be a power of two from 1 to %d; got %d", MaxColumnPlaces, p.Places)
		case i > 0 && p.Places < ps[i-1].Places:
			add(at("places"), "the points must be ordered by places: %d follows %d", p.Places, ps[i-1].Places)
		}
		switch {
		case p.Lines < 1 || p.Lines > MaxColumnLines:
			add(at("lines"), "a point's lines must be a whole number from 1 to %d; got %d", MaxColumnLines, p.Lines)
		case i > 0 && p.Places == ps[i-1].Places && p.Lines <= ps[i-1].Lines:
			add(at("lines"), "the lines of the points at %d places must increase: %d follows %d", p.Places, p.Lines, ps[i-1].Lines)
		}
		if math.IsNaN(p.Read) || p.Read <= 0 || p.Read > MaxL1Fill {
			add(at("read"), "time per step must be above 0 and up to 1 µs (e.g. 0.8 ns); got %s", fmtTime(p.Read))
		}
	}
	return es
}

// MaxColumnPlaces is the most line places a column can take: a 4 KiB
// page's 64-byte lines.
const MaxColumnPlaces = WalkPage / 64

// ColumnReadAt is the column curve's time a step for a column of lines
// lines in places line places of their pages: among the curve's place
// counts the nearest to places in log scale (the fewer of two as near),
// read between its points linearly in log lines and held at its ends.
// ok is false when the machine has no curve.
func (m Machine) ColumnReadAt(places, lines float64) (read float64, ok bool) {
	ps := m.ColumnCurve
	if len(ps) == 0 || math.IsNaN(places) || math.IsNaN(lines) {
		return 0, false
	}
	var group []ColumnPoint
	dist := math.Inf(1)
	for g := range ColumnGroups(ps) {
		if d := math.Abs(math.Log2(float64(g[0].Places)) - math.Log2(math.Max(places, 1))); d < dist {
			group, dist = g, d
		}
	}
	a, b, f := logBracket(group, lines, func(p ColumnPoint) int64 { return p.Lines })
	return a.Read + f*(b.Read-a.Read), true
}

// ColumnGroups yields a column curve, ordered by places as
// ValidateColumnCurve wants it, cut into its place counts' runs of
// points, fewest places first; as an iterator, so that an estimate that
// reads the curve allocates nothing.
func ColumnGroups(ps []ColumnPoint) iter.Seq[[]ColumnPoint] {
	return func(yield func([]ColumnPoint) bool) {
		for i := 0; i < len(ps); {
			j := i
			for j < len(ps) && ps[j].Places == ps[i].Places {
				j++
			}
			if !yield(ps[i:j]) {
				return
			}
			i = j
		}
	}
}
