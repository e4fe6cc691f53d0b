package numl

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// bruteLines is the test oracle: it walks every byte the message carries,
// in increasing address order, and counts the lines it enters, knowing
// nothing of periods or gcds (addresses only grow, so a line once left is
// never entered again).
func bruteLines(s Shape, o int64) int64 {
	var count int64
	last := int64(-1)
	visit := func(a int64) {
		if a/s.Line != last {
			last = a / s.Line
			count++
		}
	}
	if s.Kind == Rows {
		for a := o; a < o+s.K*s.W; a++ {
			visit(a)
		}
		return count
	}
	for i := int64(0); i < s.R; i++ {
		start := o + i*s.W
		for a := start; a < start+s.K*s.Elem; a++ {
			visit(a)
		}
	}
	return count
}

// bruteSpan is the minimum, maximum and mean of bruteLines over all offsets.
func bruteSpan(s Shape) (lo, hi, loAt, hiAt int64, mean float64) {
	lo = -1
	var sum int64
	for o := int64(0); o < s.Line; o++ {
		u := bruteLines(s, o)
		sum += u
		if lo < 0 || u < lo {
			lo, loAt = u, o
		}
		if u > hi {
			hi, hiAt = u, o
		}
	}
	return lo, hi, loAt, hiAt, float64(sum) / float64(s.Line)
}

func col(W, k, w, r, L, o int64) Shape {
	return Shape{Kind: Columns, W: W, K: k, Elem: w, R: r, Line: L, Offset: o}
}

func row(W, k, L, o int64) Shape { return Shape{Kind: Rows, W: W, K: k, Line: L, Offset: o} }

func checkAgainstBrute(t *testing.T, s Shape) {
	t.Helper()
	got, err := Lines(s)
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	if want := bruteLines(s, s.Offset); got != want {
		t.Fatalf("%+v: Lines = %d, brute force %d", s, got, want)
	}
	sp, err := Span(s)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, loAt, hiAt, mean := bruteSpan(s)
	if sp.Min != lo || sp.Max != hi || sp.MinOffset != loAt || sp.MaxOffset != hiAt {
		t.Fatalf("%+v: Span = %+v, brute force min %d at %d, max %d at %d", s, sp, lo, loAt, hi, hiAt)
	}
	if math.Abs(sp.Mean-mean) > 1e-9*mean {
		t.Fatalf("%+v: mean %v, brute force %v", s, sp.Mean, mean)
	}
}

// TestLinesEdgeCases compares the period sum with the byte-by-byte count on
// shapes chosen to hit each branch: gcd 1 and gcd L, rows sharing lines,
// partial periods, k·w = W (columns that are whole rows), lines of 1 byte.
func TestLinesEdgeCases(t *testing.T) {
	for _, s := range []Shape{
		col(100, 1, 4, 50, 64, 0),    // g = 4, P = 16, no sharing
		col(100, 3, 4, 16, 64, 5),    // whole period of 16 rows, off the line boundary
		col(97, 2, 1, 40, 64, 63),    // g = 1, P = 64: rows start at every offset
		col(64, 4, 4, 10, 64, 0),     // W = L: every row starts at the same offset
		col(128, 16, 4, 9, 64, 7),    // W a multiple of L, rows spanning two lines
		col(20, 4, 4, 30, 64, 0),     // W < L: consecutive rows share lines
		col(20, 5, 4, 30, 64, 3),     // k·w = W: the columns are whole rows
		col(70, 15, 4, 33, 64, 62),   // skipped part 10 < L: some pairs share
		col(65, 1, 1, 200, 64, 0),    // skipped part L exactly: no sharing possible
		col(66, 2, 1, 200, 64, 0),    // skipped part L − 1 + 1: borderline
		col(10, 1, 1, 5, 1, 0),       // L = 1: u is the bytes carried
		col(3, 1, 3, 7, 2, 1),        // element as wide as the row
		col(4096, 1, 4, 1024, 64, 0), // one column of a 1024×1024 int array
		row(4096, 1, 64, 0),
		row(100, 3, 64, 0),
		row(100, 3, 64, 28), // last byte at 28 + 300 − 1 = 327, in line 5: one more than ceil(300/64)
		row(1, 1, 64, 63),
		row(65, 1, 64, 63),
		row(64, 2, 64, 1),
	} {
		checkAgainstBrute(t, s)
	}
}

// TestLinesRandom: many random shapes with a fixed seed against the oracle.
func TestLinesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lines := []int64{1, 2, 3, 8, 16, 32, 48, 64, 100, 128}
	n := 1500
	if testing.Short() {
		n = 200
	}
	for range n {
		L := lines[rng.IntN(len(lines))]
		o := rng.Int64N(L)
		if rng.IntN(4) == 0 {
			checkAgainstBrute(t, row(1+rng.Int64N(300), 1+rng.Int64N(5), L, o))
			continue
		}
		w := 1 + rng.Int64N(8)
		W := w + rng.Int64N(300)
		k := 1 + rng.Int64N(W/w)
		r := 1 + rng.Int64N(80)
		checkAgainstBrute(t, col(W, k, w, r, L, o))
	}
}

// TestRowsAreColumnsOfWholeRows: k rows of W bytes are the same bytes as
// all W/w columns of a k-row array, so both routes must agree.
func TestRowsAreColumnsOfWholeRows(t *testing.T) {
	for _, c := range []struct{ W, k, L, o int64 }{{100, 3, 64, 0}, {100, 3, 64, 40}, {64, 5, 64, 63}, {7, 9, 8, 3}} {
		a, _ := Lines(row(c.W, c.k, c.L, c.o))
		b, _ := Lines(col(c.W, c.W, 1, c.k, c.L, c.o))
		if a != b {
			t.Errorf("%+v: rows %d, whole-row columns %d", c, a, b)
		}
	}
}

// TestPaperExamples: the lines-touched paper's section 3.1 and Figure 2. With 4-byte integers
// and 64-byte lines one column uses 4 bytes of each line it loads, one row
// all 64: sending one column of a 1024×1024 array (4096 bytes) touches
// 1024 lines, one row of the same 4096 bytes touches 4096/64 = 64, the
// "16 times as many cache misses". Section 3.2.1: "if only one column is
// transmitted, there will be M_r distinct lines accessed".
func TestPaperExamples(t *testing.T) {
	cases := []struct {
		name string
		s    Shape
		want int64
	}{
		{"one column", col(4096, 1, 4, 1024, 64, 0), 1024},
		{"one row", row(4096, 1, 64, 0), 64},
		{"one column, any aligned offset", col(4000, 1, 4, 1000, 64, 60), 1000},
		// Eq. 3: rows on a line boundary touch ceil(n/L) lines; 3·100/64 → 5.
		{"rows on a boundary", row(100, 3, 64, 0), 5},
		// Eq. 4: one more when the block straddles: 60 + 300 − 1 = 359 → line 5.
		{"rows off a boundary", row(100, 3, 64, 60), 6},
	}
	for _, c := range cases {
		if got, err := Lines(c.s); err != nil || got != c.want {
			t.Errorf("%s: %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	col1, _ := Lines(cases[0].s)
	row1, _ := Lines(cases[1].s)
	if col1 != 16*row1 {
		t.Errorf("column/row lines = %d/%d, the lines-touched paper says 16 times", col1, row1)
	}
}

// TestClosedForms: where no rows share a line and r is whole periods, the
// closed forms (ClosedForm) equal the exact minimum and maximum over
// offsets (found here by brute force).
func TestClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for checked < 400 {
		L := []int64{8, 16, 32, 64, 96, 128}[rng.IntN(6)]
		w := 1 + rng.Int64N(8)
		kw := w * (1 + rng.Int64N(12))
		W := kw + L - 1 + rng.Int64N(200) // skipped part >= L − 1
		g := gcd(W, L)
		P := L / g
		r := P * (1 + rng.Int64N(3))
		s := col(W, kw/w, w, r, L, 0)
		cf, err := Closed(s)
		if err != nil || !cf.Applies {
			t.Fatalf("%+v: %+v %v", s, cf, err)
		}
		lo, hi, _, _, _ := bruteSpan(s)
		if cf.Min != lo || cf.Max != hi {
			t.Fatalf("%+v: closed forms %d..%d, brute force %d..%d", s, cf.Min, cf.Max, lo, hi)
		}
		checked++
	}
	// Where they do not apply, say why.
	for _, s := range []Shape{col(20, 2, 4, 16, 64, 0), col(100, 1, 4, 15, 64, 0), row(100, 2, 64, 0)} {
		if cf, _ := Closed(s); cf.Applies || cf.Why == "" {
			t.Errorf("%+v: %+v", s, cf)
		}
	}
}

// TestPaperBoundsHold: the paper's L_c and U_c (and L_r, U_r) bound the exact
// count at every offset when no rows share a line.
func TestPaperBoundsHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		L := []int64{16, 32, 64, 128}[rng.IntN(4)]
		w := 1 + rng.Int64N(8)
		kw := w * (1 + rng.Int64N(10))
		W := kw + L - 1 + rng.Int64N(300)
		s := col(W, kw/w, w, 1+rng.Int64N(200), L, 0)
		pb, _ := Paper(s)
		lo, hi, _, _, _ := bruteSpan(s)
		if lo < pb.Lower || hi > pb.Upper {
			t.Fatalf("%+v: exact %d..%d outside the lines-touched paper's %d..%d", s, lo, hi, pb.Lower, pb.Upper)
		}
	}
	for _, s := range []Shape{row(100, 3, 64, 0), row(64, 1, 64, 0), row(1, 1, 64, 0)} {
		pb, _ := Paper(s)
		lo, hi, _, _, _ := bruteSpan(s)
		if lo != pb.Lower || hi > pb.Upper {
			t.Errorf("%+v: exact %d..%d, the lines-touched paper's %d..%d", s, lo, hi, pb.Lower, pb.Upper)
		}
	}
}

// TestLargeShapes: a shape of 2^40 bytes is counted without walking it. For
// one column of 4-byte elements in rows of 4096 bytes with 64-byte lines
// (g = 64, P = 1), every row touches exactly one line: u = r.
func TestLargeShapes(t *testing.T) {
	s := col(4096, 1, 4, 1<<28, 64, 0)
	if u, err := Lines(s); err != nil || u != 1<<28 {
		t.Fatalf("%d %v", u, err)
	}
	sp, _ := Span(s)
	// Offsets 61..63 split the 4-byte element across two lines.
	if sp.Min != 1<<28 || sp.Max != 2<<28 || sp.MaxOffset != 61 {
		t.Fatalf("%+v", sp)
	}
	// Rows of 2^40 bytes from offset 1: 2^40/64 lines and one more.
	if u, _ := Lines(row(1<<30, 1<<10, 64, 1)); u != 1<<34+1 {
		t.Fatalf("%d", u)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		s     Shape
		field string
	}{
		{col(100, 1, 4, 10, 0, 0), "L"},
		{col(100, 1, 4, 10, MaxLine+1, 0), "L"},
		{col(0, 1, 4, 10, 64, 0), "W"},
		{col(100, 0, 4, 10, 64, 0), "k"},
		{col(100, 26, 4, 10, 64, 0), "k"},
		{col(100, 1, 0, 10, 64, 0), "w"},
		{col(100, 1, 101, 10, 64, 0), "w"},
		{col(100, 1, 4, 0, 64, 0), "r"},
		{col(1<<40, 1, 4, 1<<30, 64, 0), "r"}, // 2^70 bytes
		{col(100, 1, 4, 10, 64, 64), "o"},
		{col(100, 1, 4, 10, 64, -1), "o"},
		{row(1<<40, 1<<30, 64, 0), "k"},
		{row(math.MaxInt64, math.MaxInt64, 64, 0), "W"},
		{Shape{Kind: 7, W: 1, K: 1, Line: 1}, "kind"},
	} {
		_, err := Lines(c.s)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: %v, want an error naming %s", c.s, err, c.field)
		}
		if _, err := Span(c.s); err == nil {
			t.Errorf("%+v: Span accepted it", c.s)
		}
	}
}

// TestUse: the picture's per-line byte counts sum to the bytes carried and
// mark exactly the lines the oracle counts.
func TestUse(t *testing.T) {
	for _, s := range []Shape{col(100, 3, 4, 20, 64, 5), col(20, 2, 4, 30, 64, 0), row(100, 3, 64, 60)} {
		use, total, err := Use(s, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var bytes, touched int64
		for _, lu := range use {
			bytes += lu.Used
			if lu.Used > 0 {
				touched++
			}
			if lu.Used > s.Line {
				t.Fatalf("%+v: line %d uses %d bytes", s, lu.Line, lu.Used)
			}
		}
		if int64(len(use)) != total || bytes != s.Bytes() || touched != bruteLines(s, s.Offset) {
			t.Errorf("%+v: %d lines of %d, %d bytes, %d touched", s, len(use), total, bytes, touched)
		}
	}
	use, total, _ := Use(col(4096, 1, 4, 1<<20, 64, 0), 100)
	if len(use) != 100 || total != (1<<20-1)*64+1 || use[0].Used != 4 || use[1].Used != 0 || use[64].Used != 4 {
		t.Errorf("truncated picture: %d of %d, %+v", len(use), total, use[:2])
	}
}
