package numl

import (
	"fmt"
	"math/bits"
	"memwall/engine/field"
)

// Kind says which part of a row-major array a message carries.
type Kind int

const (
	// Rows is k whole rows: one contiguous block of k·W bytes.
	Rows Kind = iota
	// Columns is the k leftmost columns: the first k·w bytes of each of r
	// rows.
	Columns
)

func (k Kind) String() string {
	if k == Columns {
		return "columns"
	}
	return "rows"
}

// ParseKind reads "rows" or "columns" (also "row", "cols", "col").
func ParseKind(s string) (Kind, error) {
	switch s {
	case "rows", "row":
		return Rows, nil
	case "columns", "cols", "column", "col":
		return Columns, nil
	}
	return Rows, &FieldError{Field: "kind", Msg: fmt.Sprintf("%q is not rows or columns", s)}
}

// Limits on a shape. A line larger than a 1 MiB page has no use here, and
// it bounds the O(L) search over alignments. Byte counts stay below 2^60 so
// that every count derived from them (at most r·(kw/L + 2) lines) fits in
// an int64.
const (
	MaxLine  = 1 << 20
	MaxBytes = 1 << 60
)

// Shape is a message cut from a row-major array (the lines-touched paper section 3.2).
type Shape struct {
	Kind Kind
	// W is the width of an array row in bytes.
	W int64
	// K is the number of rows (Rows) or columns (Columns) carried.
	K int64
	// Elem is w, the bytes per element (Columns only; a column is Elem
	// bytes wide).
	Elem int64
	// R is the number of rows of the array (Columns only).
	R int64
	// Line is L, the cache-line size in bytes.
	Line int64
	// Offset is o, the position of the block's first byte within its line,
	// 0 <= o < L.
	Offset int64
}

// FieldError names the input that is wrong and what is accepted.
type FieldError = field.Error

func rangeErr(field, what string, lo, hi int64, got int64) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf("%s must be between %d and %d, got %d", what, lo, hi, got)}
}

// Validate checks every field, naming the first one that is wrong.
func (s Shape) Validate() error {
	if s.Kind != Rows && s.Kind != Columns {
		return &FieldError{Field: "kind", Msg: "must be rows or columns"}
	}
	if s.Line < 1 || s.Line > MaxLine {
		return rangeErr("L", "the line size in bytes", 1, MaxLine, s.Line)
	}
	if s.W < 1 || s.W > MaxBytes {
		return rangeErr("W", "the row width in bytes", 1, MaxBytes, s.W)
	}
	if s.K < 1 {
		return rangeErr("k", "the number of "+s.Kind.String(), 1, maxK(s), s.K)
	}
	if s.Kind == Rows {
		if hi, lo := bits.Mul64(uint64(s.K), uint64(s.W)); hi != 0 || lo > MaxBytes {
			return &FieldError{Field: "k", Msg: fmt.Sprintf("k·W = %d·%d bytes exceeds the limit of 2^60 bytes", s.K, s.W)}
		}
	} else {
		if s.Elem < 1 || s.Elem > s.W {
			return rangeErr("w", "the element size in bytes", 1, s.W, s.Elem)
		}
		if s.K > s.W/s.Elem {
			return rangeErr("k", fmt.Sprintf("the number of columns (k·w within a row of W = %d bytes)", s.W), 1, s.W/s.Elem, s.K)
		}
		if s.R < 1 || s.R > MaxBytes/s.W {
			return rangeErr("r", fmt.Sprintf("the number of rows (r·W at most 2^60 bytes with W = %d)", s.W), 1, MaxBytes/s.W, s.R)
		}
	}
	if s.Offset < 0 || s.Offset >= s.Line {
		return rangeErr("o", "the offset of the first byte within its line", 0, s.Line-1, s.Offset)
	}
	return nil
}

func maxK(s Shape) int64 {
	if s.Kind == Columns && s.Elem >= 1 && s.W >= s.Elem {
		return s.W / s.Elem
	}
	return MaxBytes / max(s.W, 1)
}

// Bytes is n, the bytes the message carries: k·W for rows, k·w·r for
// columns (the lines-touched paper section 3.2).
func (s Shape) Bytes() int64 {
	if s.Kind == Rows {
		return s.K * s.W
	}
	return s.K * s.Elem * s.R
}

// geometry is a shape seen as r runs of `run` bytes, one every W bytes: a
// row block is one run of k·W bytes.
func (s Shape) geometry() (rows, run, stride int64) {
	if s.Kind == Rows {
		return 1, s.K * s.W, s.K * s.W
	}
	return s.R, s.K * s.Elem, s.W
}

// Lines returns u, the exact number of distinct lines the message touches
// with its first byte at s.Offset within a line.
func Lines(s Shape) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if s.Kind == Rows {
		// Eqs. 3, 4: a contiguous block of n bytes from offset o.
		return (s.Offset+s.Bytes()-1)/s.Line + 1, nil
	}
	return columnLines(s, s.Offset), nil
}

// perRow is the number of lines a run of `run` bytes starting at offset
// st (0 <= st < L) within a line covers.
func perRow(st, run, L int64) int64 { return (st+run-1)/L + 1 }

// shares reports whether a run starting at offset st shares its last line
// with the next run, which starts stride bytes after it. Only a skipped
// part stride − run shorter than L − 1 bytes allows it.
func shares(st, run, stride, L int64) bool {
	return (st+run-1)/L == (st+stride)/L
}

// columnLines sums lines per row over one period of row starts and the
// remainder (Theorem 1: the starts repeat every P = L/g rows), and
// subtracts the lines consecutive rows share, in O(P).
func columnLines(s Shape, o int64) int64 {
	rows, run, stride := s.geometry()
	L := s.Line
	g := gcd(stride, L)
	P := L / g
	step := stride % L
	remC := rows % P       // rows beyond whole periods
	remS := (rows - 1) % P // pairs (i, i+1) beyond whole periods
	var totC, totS, partC, partS int64
	st := o
	for i := int64(0); i < P; i++ {
		c := perRow(st, run, L)
		var sh int64
		if shares(st, run, stride, L) {
			sh = 1
		}
		totC += c
		totS += sh
		if i < remC {
			partC += c
		}
		if i < remS {
			partS += sh
		}
		st += step
		if st >= L {
			st -= L
		}
	}
	return (rows/P)*totC + partC - ((rows-1)/P)*totS - partS
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Range is the lines touched over every alignment of the first byte.
type Range struct {
	// Min and Max are the exact minimum and maximum over offsets
	// 0 <= o < L: the paper's lower and upper bounds made tight.
	Min, Max int64
	// MinOffset and MaxOffset are the smallest offsets that reach them.
	MinOffset, MaxOffset int64
	// Mean is the average over the L offsets: the expected count when the
	// alignment is unknown.
	Mean float64
}

// Span returns the minimum, maximum and mean of u over all offsets (s.Offset
// is ignored).
//
// For columns the offsets o = ρ + t·g with the same residue ρ = o mod g see
// the same P row starts ρ + j·g, in an order that only rotates with t:
// with w' = W/g (invertible modulo P), t = m0·w' mod P puts row i at
// j = (m0 + i)·w' mod P. So for each ρ the per-row counts are laid out once
// along m, and u for every m0 is a window sum slid along them: O(L) work for
// all L offsets and O(1) memory.
func Span(s Shape) (Range, error) {
	if err := s.Validate(); err != nil {
		return Range{}, err
	}
	L := s.Line
	rows, run, stride := s.geometry()
	mean := meanLines(rows, run, stride, L)
	if s.Kind == Rows {
		n := s.Bytes()
		lo := (n-1)/L + 1
		// The last byte moves into a new line once o + n − 1 reaches the
		// next multiple of L.
		hi := (L-1+n-1)/L + 1
		maxOff := int64(0)
		if hi > lo {
			maxOff = lo*L - n + 1
		}
		return Range{Min: lo, Max: hi, MinOffset: 0, MaxOffset: maxOff, Mean: mean}, nil
	}
	g := gcd(stride, L)
	P := L / g
	wp := (stride / g) % P
	q, remC := rows/P, rows%P
	qS, remS := (rows-1)/P, (rows-1)%P
	best := Range{Min: -1, Mean: mean}
	for rho := int64(0); rho < g; rho++ {
		// Counts at position m of the rotated sequence.
		at := func(m int64) (c, sh int64) {
			j := mulmod(m%P, wp, P)
			st := rho + j*g
			c = perRow(st, run, L)
			if shares(st, run, stride, L) {
				sh = 1
			}
			return
		}
		var totC, totS, winC, winS int64
		for m := int64(0); m < P; m++ {
			c, sh := at(m)
			totC += c
			totS += sh
			if m < remC {
				winC += c
			}
			if m < remS {
				winS += sh
			}
		}
		for m0 := int64(0); m0 < P; m0++ {
			u := q*totC + winC - qS*totS - winS
			o := rho + mulmod(m0, wp, P)*g
			if best.Min < 0 || u < best.Min || (u == best.Min && o < best.MinOffset) {
				best.Min, best.MinOffset = u, o
			}
			if u > best.Max || (u == best.Max && o < best.MaxOffset) {
				best.Max, best.MaxOffset = u, o
			}
			// Slide both windows one position along m.
			if remC > 0 {
				c0, _ := at(m0)
				c1, _ := at(m0 + remC)
				winC += c1 - c0
			}
			if remS > 0 {
				_, s0 := at(m0)
				_, s1 := at(m0 + remS)
				winS += s1 - s0
			}
		}
	}
	return best, nil
}

// mulmod is a·b mod m for a, b < m <= MaxLine, whose product fits.
func mulmod(a, b, m int64) int64 { return a * b % m }

// meanLines is the average of u over the L offsets, in closed form. Each
// row's start offset runs over all of 0..L−1 as o does, and
// sum_{s<L} floor((s + a)/L) = a (Hermite's identity), so a run of b bytes
// covers (L + b − 1)/L lines on average; a row shares its last line with the
// next for L − (W − kw + 1) of the L offsets of its last byte when that is
// positive.
func meanLines(rows, run, stride, L int64) float64 {
	perRow := float64(L+run-1) / float64(L)
	shared := float64(max(0, L-(stride-run+1))) / float64(L)
	return float64(rows)*perRow - float64(rows-1)*shared
}

// ClosedForm is u_min and u_max of docs/readings.md (the lines-touched paper,
// Theorem 2 with whole periods): r + (r·g/L)·(ceil(kw/g) − 1) and
// r + (r·g/L)·ceil((kw − 1)/g). Applies reports whether they are exact:
// columns, no two rows can share a line (W − kw >= L − 1), and r is a
// multiple of the period P = L/g.
type ClosedForm struct {
	Applies  bool
	Why      string // when they do not apply
	Min, Max int64
	G, P     int64
}

// Closed returns the closed forms for a column shape.
func Closed(s Shape) (ClosedForm, error) {
	if err := s.Validate(); err != nil {
		return ClosedForm{}, err
	}
	rows, run, stride := s.geometry()
	L := s.Line
	g := gcd(stride, L)
	cf := ClosedForm{G: g, P: L / g}
	periods := rows / cf.P
	// Whole periods: per period P + floor((ρ + kw − 1)/g) lines (Hermite's
	// identity over the P starts ρ + j·g), least at ρ = 0 and most at
	// ρ = g − 1.
	cf.Min = rows + periods*(ceilDiv(run, g)-1)
	cf.Max = rows + periods*ceilDiv(run-1, g)
	switch {
	case s.Kind != Columns:
		cf.Why = "the closed forms are for column transfers"
	case stride-run < L-1:
		cf.Why = fmt.Sprintf("W − kw = %d bytes is less than L − 1 = %d, so consecutive rows can share a line", stride-run, L-1)
	case rows%cf.P != 0:
		cf.Why = fmt.Sprintf("r = %d is not a multiple of the period P = L/g = %d", rows, cf.P)
	default:
		cf.Applies = true
	}
	return cf, nil
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// PaperBounds are the paper's printed bounds (eqs. 3–6). For rows
// L_r = ceil(n/L) and U_r = ceil(n/L) + 1, with (L_r + U_r)/2 as the
// estimate. For columns, NUML_0 = L/g + ceil(kw/g) − 1 lines per period of
// L/g rows (the proof of Theorem 2), L_c = floor(r·g/L)·NUML_0 and
// U_c = ceil(r·g/L)·(NUML_0 + 1): they bound u when no two rows share a line.
type PaperBounds struct {
	Lower, Upper int64
	Estimate     float64
}

// Paper returns the paper's bounds for s.
func Paper(s Shape) (PaperBounds, error) {
	if err := s.Validate(); err != nil {
		return PaperBounds{}, err
	}
	L := s.Line
	if s.Kind == Rows {
		lo := ceilDiv(s.Bytes(), L)
		return PaperBounds{Lower: lo, Upper: lo + 1, Estimate: float64(lo) + 0.5}, nil
	}
	g := gcd(s.W, L)
	P := L / g
	numl0 := P + ceilDiv(s.K*s.Elem, g) - 1
	lo := (s.R / P) * numl0
	hi := ceilDiv(s.R, P) * (numl0 + 1)
	return PaperBounds{Lower: lo, Upper: hi, Estimate: float64(lo+hi) / 2}, nil
}

// LineUse is one line of the array's memory: how many of its bytes the
// message carries (0 when it is not touched).
type LineUse struct {
	Line int64 // 0 is the line holding the array's first byte
	Used int64
}

// Use lists the lines from the array's first line on, at most maxLines of
// them, with the bytes of each that the message carries; it says whether
// the array has more lines than were listed. For a picture of the lines
// touched (docs/readings.md).
func Use(s Shape, maxLines int) ([]LineUse, int64, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	if maxLines < 1 {
		return nil, 0, &FieldError{Field: "lines", Msg: "at least one line must be shown"}
	}
	rows, run, stride := s.geometry()
	L := s.Line
	// The array spans from o to o + (rows − 1)·stride + run − 1 (its last
	// carried byte; the skipped end of the last row is not drawn).
	total := (s.Offset+(rows-1)*stride+run-1)/L + 1
	n := min(total, int64(maxLines))
	out := make([]LineUse, n)
	for i := range out {
		out[i].Line = int64(i)
	}
	for i := int64(0); i < rows; i++ {
		start := s.Offset + i*stride
		if start/L >= n {
			break
		}
		end := start + run // exclusive
		for ln := start / L; ln < n && ln*L < end; ln++ {
			lo, hi := max(start, ln*L), min(end, (ln+1)*L)
			out[ln].Used += hi - lo
		}
	}
	return out, total, nil
}
