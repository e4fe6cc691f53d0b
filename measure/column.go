package measure

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"
	"unsafe"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Column method: the matrix product's cost a step depends on how its
// column's lines fall in the caches' sets, which the hierarchy's
// numbers do not say and which differs from core to core (on a Zen 5
// guest the product's own loop took 2.2 ns a step over a column of rows
// 4 KiB apart, 1.3 at 2 KiB and 0.42 in the first level; on a Zen 4
// guest two places cost a fraction of one). Calibration times the loop
// itself, dotColumn with each column's sum stored as MatMul stores it,
// over columns of L lines whose lines take p line places of their pages
// (p = 1 to 64), with rows as near a product's of n = L as that allows
// (columnRow). A point walks L columns (at most a row's), as a product
// of n = L walks every column of Q for each row of P, so that it goes
// round about as many lines and pages as that product's Q; it is read
// off its fastest round (machine.ColumnPoint).

// columnCurvePlaces and columnCurveLines are the curve's shapes. They
// stop at 2048 lines, a Q of some 16 MiB: past the last cache a larger
// Q's lines come from memory, which the levels charge, and a point
// there (4096 lines, 64 MiB: 3.8 ns a step on the Zen 5 guest, against
// 1.0 at 2048) would pull the curve up between the two, where a
// product of n = 2200 ran at 1.04 ns a step.
var (
	columnCurvePlaces = []int{1, 2, 4, 8, 16, 32, 64}
	columnCurveLines  = []int64{16, 32, 64, 128, 256, 512, 1024, 2048}
)

// columnSteps is the steps a point times at least, in a round: some
// 0.1 to 1 ms of the loop natively, and 16 times as many in a page,
// whose clock is coarse (browserColumnSteps).
const (
	columnSteps        = 1 << 18
	browserColumnSteps = 1 << 22
)

// ColumnResult is the column curve's measurement: each point's seconds
// a step by round.
type ColumnResult struct {
	Points []ColumnShape `json:"points"`
}

// ColumnShape is one shape of the column curve and its rounds.
type ColumnShape struct {
	Places int   `json:"places"`
	Lines  int64 `json:"lines"`
	Step   Stat  `json:"step"`
}

// columnRow is the bytes between the rows of a column of lines lines
// whose lines take places line places of their 4 KiB pages: the row of
// 4-byte words nearest a product's of n = lines (4·lines bytes) among
// those that give that many places, an odd multiple of page/places (any
// multiple of a page for one place), so that the point's column spans as
// many pages as that product's.
func columnRow(places int, lines int64) int64 {
	unit := machine.WalkPage / int64(places)
	m := max(1, int64(math.Round(float64(4*lines)/float64(unit))))
	if places > 1 && m%2 == 0 {
		m++ // the odd multiple above: rows a page or more apart stay so
	}
	return unit * m
}

// columnWarm is how many times a round walks a shape whose words fit in
// half the last cache before it times it, and columnTimed how many walks
// it then times, keeping the fastest. A product whose Q the cache holds
// walks Q once for each row of P, and after its first few rows it runs
// at the steady speed of a cache that has seen Q many times; one walk
// after the other measurements is not there yet. On the Zen 5 guest the
// shape of 64 places and 1024 lines (4 MiB) took 838, 854, 815, 792,
// 763, 695 and then 598 to 622 ps a step over ten walks in a row, and
// 597 to 689 and then 580 to 620 at three other places in the buffer;
// one walk after one warming walk, the calibrations of a day read it at
// 607 to 787 ps, and the product of n = 1112 ran at 626. A shape past
// half the cache keeps one warming walk: a product whose Q the cache
// cannot hold streams Q from memory every row, and never warms.
const (
	columnWarm  = 6
	columnTimed = 3
)

// columnRounds times the curve's shapes that fit in buf, rounds times
// each, steps steps at least a round, a shape that touches at most c/2
// bytes warmed to its steady speed (columnWarm; c = 0: none). A round
// times every shape once, so that a shape's rounds lie apart in time:
// on a shared host a neighbour's busy second slows every shape timed in
// it, and rounds timed back to back would all fall in it (on the Zen 5
// guest the shapes at 4 to 64 places timed so in one calibration read
// 0.54 to 0.76 ns a step at 16 to 64 lines, where the loop takes 0.39 to
// 0.46).
func columnRounds(ctx context.Context, buf []uint64, steps, rounds int, c int64) (ColumnResult, error) {
	col, err := newColumner(buf, steps, c)
	return takeRounds[ColumnResult](ctx, rounds, col, err)
}

// columnShape is one shape the column curve times: its places and lines,
// its rows' stride in bytes, its columns and its repetitions a walk, and
// the walks a round warms it with and then times.
type columnShape struct {
	places      int
	lines       int64
	stride      int64
	cols, reps  int
	warm, timed int
}

// columner is columnRounds a round at a time (rounder).
type columner struct {
	base   unsafe.Pointer
	row    []uint32
	out    []uint32
	shapes []columnShape
	per    [][]float64
}

func newColumner(buf []uint64, steps int, c int64) (*columner, error) {
	bytes := int64(len(buf)) * 8
	row := make([]uint32, columnCurveLines[len(columnCurveLines)-1])
	for i := range row {
		row[i] = uint32(i*2654435761) | 1
	}
	var shapes []columnShape
	for _, p := range columnCurvePlaces {
		for _, lines := range columnCurveLines {
			stride := columnRow(p, lines)
			if lines*stride > bytes {
				break // the larger shapes at these places need more
			}
			// As many columns as a product of n = lines has, so that the
			// lines the point goes round are as many as its Q's.
			cols := int(min(lines, stride/4))
			sh := columnShape{places: p, lines: lines, stride: stride, cols: cols, reps: max(1, steps/(int(lines)*cols)), warm: 1, timed: 1}
			// The bytes it touches, a row's cols words in each of its
			// lines rows, as a product's Q: the rows' stride spreads
			// them over more (two places of 1024 lines: 6 MiB apart, 4
			// MiB touched), but the cache holds only what is read.
			if c > 0 && lines*int64(cols)*4 <= c/2 {
				sh.warm, sh.timed = columnWarm, columnTimed
			}
			shapes = append(shapes, sh)
		}
	}
	if len(shapes) == 0 {
		return nil, fmt.Errorf("column curve: a buffer of %s holds no column of %d lines", units.FormatSize(bytes), columnCurveLines[0])
	}
	return &columner{base: unsafe.Pointer(unsafe.SliceData(buf)), row: row, out: make([]uint32, columnCurveLines[len(columnCurveLines)-1]),
		shapes: shapes, per: make([][]float64, len(shapes))}, nil
}

// walk takes a shape's columns its repetitions over.
func (c *columner) walk(sh columnShape) {
	r := c.row[:sh.lines]
	for range sh.reps {
		for j := range sh.cols {
			c.out[j] = dotColumn(r, unsafe.Add(c.base, 4*j), uintptr(sh.stride))
		}
	}
}

func (c *columner) round(int) {
	for i, sh := range c.shapes {
		for range sh.warm {
			c.walk(sh) // the shape's lines into the caches, as the product's steady state
		}
		best := math.Inf(1)
		for range sh.timed {
			t0 := time.Now()
			c.walk(sh)
			best = min(best, time.Since(t0).Seconds())
		}
		c.per[i] = append(c.per[i], best/float64(sh.reps*int(sh.lines)*sh.cols))
	}
}

func (c *columner) result() ColumnResult {
	sink += uint64(c.out[0])
	res := ColumnResult{Points: make([]ColumnShape, len(c.shapes))}
	for i, sh := range c.shapes {
		res.Points[i] = ColumnShape{Places: sh.places, Lines: sh.lines, Step: Summarize(c.per[i])}
	}
	return res
}

// setColumnCurve sets m's ColumnCurve from r, each point's fastest round
// (a neighbour's traffic only adds time), with the median of the points'
// spreads and a note; it returns why when no point gave a time.
func setColumnCurve(m *machine.Machine, r ColumnResult) string {
	var pts []machine.ColumnPoint
	var spreads []float64
	for _, p := range r.Points {
		t := p.Step.Min
		if !(t > 0) || t > machine.MaxL1Fill || math.IsInf(t, 0) {
			continue
		}
		pts = append(pts, machine.ColumnPoint{Places: p.Places, Lines: p.Lines, Read: round3g(t)})
		spreads = append(spreads, p.Step.Spread)
	}
	if len(pts) == 0 {
		return "column curve: no shape gave a time; column_curve not set"
	}
	m.ColumnCurve = pts
	m.Spread[columnCurveKey] = round3(Summarize(spreads).Median)
	first, last := pts[0], pts[len(pts)-1]
	m.Notes[columnCurveKey] = fmt.Sprintf("the matrix product's loop (a row against a column, its sum stored) over L columns of L lines whose lines take p line places of their pages, rows as near a product's of n = L as that allows, p from %d to %d and L from %d to %d, each shape's fastest round: %s a step at %s and %d lines, %s at %s and %d",
		first.Places, last.Places, columnCurveLines[0], maxLines(pts), units.FormatSeconds(first.Read), placesText(first.Places), first.Lines, units.FormatSeconds(last.Read), placesText(last.Places), last.Lines)
	return ""
}

// placesText is "1 place" or "n places".
func placesText(n int) string {
	if n == 1 {
		return "1 place"
	}
	return fmt.Sprintf("%d places", n)
}

func maxLines(ps []machine.ColumnPoint) int64 {
	var m int64
	for _, p := range ps {
		m = max(m, p.Lines)
	}
	return m
}

// mergeColumnRounds is one ColumnResult of several of one round each (a
// page times a round at a time, between its other steps): each shape's
// times over the rounds that reached it.
func mergeColumnRounds(rounds []ColumnResult) ColumnResult {
	type shape struct {
		places int
		lines  int64
	}
	var order []shape
	times := map[shape][]float64{}
	for _, r := range rounds {
		for _, p := range r.Points {
			k := shape{p.Places, p.Lines}
			if _, ok := times[k]; !ok {
				order = append(order, k)
			}
			times[k] = append(times[k], p.Step.Median)
		}
	}
	slices.SortFunc(order, func(a, b shape) int { return cmp.Or(cmp.Compare(a.places, b.places), cmp.Compare(a.lines, b.lines)) })
	var out ColumnResult
	for _, k := range order {
		out.Points = append(out.Points, ColumnShape{Places: k.places, Lines: k.lines, Step: Summarize(times[k])})
	}
	return out
}
