package measure

import (
	"context"
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// TestColumnRow: rows near a product's of n = lines that give the
// places asked for, by hand: one place at 1024 lines is a page (n =
// 1024's rows), at 2048 two pages (n = 2048's); two places at 512 lines
// 2 KiB (n = 512's), at 1024 lines 4 KiB would be one place, so the odd
// multiple above, 6 KiB; eight at 128 lines 512 B (n = 128's); 64 at 16
// lines one line, at 1000 lines 63 lines (4032 B, 4000 rounded to an
// odd multiple of 64). Every row gives its places:
// page/gcd(page, row), at most the page's 64 lines.
func TestColumnRow(t *testing.T) {
	for _, c := range []struct {
		places int
		lines  int64
		want   int64
	}{
		{1, 16, 4096}, {1, 1024, 4096}, {1, 2048, 8192},
		{2, 512, 2048}, {2, 1024, 6144}, {8, 128, 512},
		{64, 16, 64}, {64, 1000, 4032},
	} {
		if got := columnRow(c.places, c.lines); got != c.want {
			t.Errorf("columnRow(%d, %d) = %d, want %d", c.places, c.lines, got, c.want)
		}
	}
	for _, p := range columnCurvePlaces {
		for _, l := range columnCurveLines {
			row := columnRow(p, l)
			g := row
			for b := int64(machine.WalkPage); b != 0; {
				g, b = b, g%b
			}
			if got := min(64, machine.WalkPage/g); got != int64(p) {
				t.Errorf("columnRow(%d, %d) = %d takes %d places", p, l, row, got)
			}
		}
	}
}

// TestColumnRounds: every shape that fits an 8 MiB buffer is timed, in
// order, at a positive time; the larger shapes are left out, and a
// buffer under the smallest is refused.
func TestColumnRounds(t *testing.T) {
	buf := make([]uint64, 8<<20/8)
	r, err := columnRounds(context.Background(), buf, 1<<10, 2, 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range columnCurvePlaces {
		for _, l := range columnCurveLines {
			if l*columnRow(p, l) <= 8<<20 {
				want++
			}
		}
	}
	if len(r.Points) != want || want == len(columnCurvePlaces)*len(columnCurveLines) {
		t.Fatalf("%d points, want %d (fewer than every shape)", len(r.Points), want)
	}
	for i, p := range r.Points {
		if !(p.Step.Min > 0) || p.Step.Min > 1e-6 {
			t.Errorf("point %d (%d places, %d lines): %g s a step", i, p.Places, p.Lines, p.Step.Min)
		}
		if i > 0 && (p.Places < r.Points[i-1].Places || p.Places == r.Points[i-1].Places && p.Lines <= r.Points[i-1].Lines) {
			t.Errorf("point %d out of order", i)
		}
	}
	if _, err := columnRounds(context.Background(), buf[:100], 1<<10, 1, 0); err == nil {
		t.Error("a buffer of 800 bytes gave a curve")
	}
}

// TestSetColumnCurve: each point at its fastest round (to three
// figures), the median of the points' spreads, a note; a machine file
// of it validates. No positive time leaves the curve unset.
func TestSetColumnCurve(t *testing.T) {
	r := ColumnResult{Points: []ColumnShape{
		{Places: 1, Lines: 16, Step: Summarize([]float64{1.2e-9, 1.0001e-9, 1.1e-9})},
		{Places: 1, Lines: 32, Step: Summarize([]float64{2e-9, 2e-9, 2e-9})},
		{Places: 64, Lines: 16, Step: Summarize([]float64{0.5e-9, 0.45e-9, 0.4e-9})},
	}}
	m := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	if why := setColumnCurve(&m, r); why != "" {
		t.Fatal(why)
	}
	want := []machine.ColumnPoint{{Places: 1, Lines: 16, Read: 1e-9}, {Places: 1, Lines: 32, Read: 2e-9}, {Places: 64, Lines: 16, Read: 0.4e-9}}
	for i, p := range m.ColumnCurve {
		if p.Places != want[i].Places || p.Lines != want[i].Lines || math.Abs(p.Read-want[i].Read) > 1e-20 {
			t.Errorf("point %d = %+v, want %+v", i, p, want[i])
		}
	}
	// The spreads: 0.1/1.1 for the first point, 0 for the second, 0.05/0.45 for the third; the median 0.0909.
	if s := m.Spread["column_curve"]; math.Abs(s-0.091) > 0.0005 {
		t.Errorf("spread %g, want 0.091", s)
	}
	if es := machine.ValidateColumnCurve(m.ColumnCurve); len(es) > 0 || !strings.Contains(m.Notes["column_curve"], "p from 1 to 64") {
		t.Errorf("%v, note %q", es, m.Notes["column_curve"])
	}
	m2 := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	if why := setColumnCurve(&m2, ColumnResult{Points: []ColumnShape{{Places: 1, Lines: 16}}}); m2.ColumnCurve != nil || !strings.Contains(why, "column_curve not set") {
		t.Errorf("no times: %v, why %q", m2.ColumnCurve, why)
	}
}

// TestMergeColumnRounds: a page's rounds, one round each, merge into one
// result in the curve's order, each shape with the times of the rounds
// that reached it.
func TestMergeColumnRounds(t *testing.T) {
	one := func(p int, l int64, v float64) ColumnShape {
		return ColumnShape{Places: p, Lines: l, Step: Summarize([]float64{v})}
	}
	got := mergeColumnRounds([]ColumnResult{
		{Points: []ColumnShape{one(64, 16, 1), one(1, 16, 2)}},
		{Points: []ColumnShape{one(1, 16, 4), one(1, 8, 3)}},
	})
	want := []struct {
		p      int
		l      int64
		median float64
	}{{1, 8, 3}, {1, 16, 3}, {64, 16, 1}}
	if len(got.Points) != len(want) {
		t.Fatalf("%+v", got.Points)
	}
	for i, w := range want {
		p := got.Points[i]
		if p.Places != w.p || p.Lines != w.l || p.Step.Median != w.median {
			t.Errorf("point %d = %+v, want %d places %d lines median %g", i, p, w.p, w.l, w.median)
		}
	}
}

// TestColumnWarm: with a last cache of 4 MiB the shapes of up to 512
// lines are warmed columnWarm walks and timed over columnTimed (a shape
// of L lines touches L columns' words in each of its L rows, 4·L² bytes:
// 1 MiB at 512 lines, 4 MiB at 1024, past half the cache), the rest
// warmed once and timed once, as every shape is where the cache is not
// known.
func TestColumnWarm(t *testing.T) {
	buf := make([]uint64, 8<<20/8)
	const c = 4 << 20
	col, err := newColumner(buf, 1<<10, c)
	if err != nil {
		t.Fatal(err)
	}
	warmed := 0
	for _, sh := range col.shapes {
		want := [2]int{1, 1}
		if sh.lines <= 512 {
			want = [2]int{columnWarm, columnTimed}
			warmed++
		}
		if got := [2]int{sh.warm, sh.timed}; got != want {
			t.Errorf("%d places, %d lines (%d bytes): warm and timed %v, want %v", sh.places, sh.lines, sh.lines*sh.stride, got, want)
		}
	}
	if warmed == 0 || warmed == len(col.shapes) {
		t.Errorf("%d of %d shapes warmed; want some and not all", warmed, len(col.shapes))
	}
	none, err := newColumner(buf, 1<<10, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range none.shapes {
		if sh.warm != 1 || sh.timed != 1 {
			t.Errorf("no cache: %d places, %d lines warmed %d, timed %d", sh.places, sh.lines, sh.warm, sh.timed)
		}
	}
}
