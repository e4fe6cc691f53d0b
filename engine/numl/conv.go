package numl

import (
	"fmt"
	"math"
	"math/bits"

	"memwall/engine/fit"
)

// Conv describes a uniform linear convolution run (the lines-touched paper section 7): an
// N×N image of Elem-byte pixels on a Pr×Pc processor mesh, each processor
// holding a block of ceil(N/Pr) rows and ceil(N/Pc) columns in row-major
// order, its arrays starting on line boundaries, with lines of Line bytes.
type Conv struct {
	N      int64
	Elem   int64
	Pr, Pc int64
	Line   int64
}

// MaxImage bounds N: an image of 2^20 × 2^20 pixels is far beyond the
// paper's 2000×2000 and keeps every count well inside an int64.
const MaxImage = 1 << 20

// Validate names the first field that is wrong.
func (c Conv) Validate() error {
	switch {
	case c.N < 1 || c.N > MaxImage:
		return rangeErr("N", "the image side in pixels", 1, MaxImage, c.N)
	case c.Elem < 1 || c.Elem > 64:
		return rangeErr("w", "the bytes per pixel", 1, 64, c.Elem)
	case c.Pr < 1 || c.Pr > c.N:
		return rangeErr("pr", "the processor rows of the mesh", 1, c.N, c.Pr)
	case c.Pc < 1 || c.Pc > c.N:
		return rangeErr("pc", "the processor columns of the mesh", 1, c.N, c.Pc)
	case c.Line < 1 || c.Line > MaxLine:
		return rangeErr("L", "the line size in bytes", 1, MaxLine, c.Line)
	}
	return nil
}

// Block returns the rows and columns of one processor's block.
func (c Conv) Block() (rows, cols int64) {
	return (c.N + c.Pr - 1) / c.Pr, (c.N + c.Pc - 1) / c.Pc
}

// MaxBlock is the largest box size b the programs take: a shift by b
// rows or columns must stay within the neighbouring processor's block.
func (c Conv) MaxBlock() int64 {
	r, k := c.Block()
	return min(r, k)
}

// Op is one statement of a program as the model sees it, per processor: a
// communication (messages M of N bytes touching U lines) or a computation
// statement (section 7.1: Ops arithmetic operations, Access loads and
// stores, U lines touched), executed Times times.
type Op struct {
	Line     string // the statement, as in Figures 18 and 19
	Comm     bool
	Times    int64
	M, N, U  int64 // communication features (Comm)
	Ops      int64 // arithmetic operations (computation)
	Access   int64 // loads and stores (computation)
	Describe string
}

// Coef holds the coefficients of a cost model, in seconds. The standard
// model has Gamma = GammaMem = 0.
type Coef struct {
	Alpha float64 `json:"alpha"` // per message
	Beta  float64 `json:"beta"`  // per byte sent
	Gamma float64 `json:"gamma"` // per line touched by a message
	// Computation statements: T_comp = Delta·ops + BetaMem·accesses +
	// GammaMem·lines (eq. 12 with T_mem modelled like communication).
	Delta    float64 `json:"delta"`
	BetaMem  float64 `json:"beta_mem"`
	GammaMem float64 `json:"gamma_mem"`
}

// Validate names a coefficient that is negative, NaN or infinite.
func (c Coef) Validate(prefix string) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"alpha", c.Alpha}, {"beta", c.Beta}, {"gamma", c.Gamma}, {"delta", c.Delta}, {"beta_mem", c.BetaMem}, {"gamma_mem", c.GammaMem}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 || f.v > 1 {
			return &FieldError{Field: prefix + f.name, Msg: fmt.Sprintf("a cost in seconds between 0 and 1 s, got %v", f.v)}
		}
	}
	return nil
}

// Seconds is the cost of one execution of op under c.
func (op Op) Seconds(c Coef) float64 {
	if op.Comm {
		return c.Alpha*float64(op.M) + c.Beta*float64(op.N) + c.Gamma*float64(op.U)
	}
	return c.Delta*float64(op.Ops) + c.BetaMem*float64(op.Access) + c.GammaMem*float64(op.U)
}

// Cost is the total time of ops under c.
func Cost(ops []Op, c Coef) float64 {
	var t float64
	for _, op := range ops {
		t += float64(op.Times) * op.Seconds(c)
	}
	return t
}

func (c Conv) checkB(b int64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if hi := c.MaxBlock(); b < 1 || b > hi {
		return rangeErr("b", "the box size (at most the block's smaller side, so a shift reaches only the neighbour)", 1, hi, b)
	}
	return nil
}

// arrayLines is the lines one block-sized array occupies, starting on a
// line boundary.
func (c Conv) arrayLines() int64 {
	r, k := c.Block()
	return ceilDiv(r*k*c.Elem, c.Line)
}

// shift is one @ shift carrying k rows or columns of the block, or the
// b×b corner (both > 0); none when the mesh has one processor that way.
func (c Conv) shift(line string, times, rows, cols int64, along int64) Op {
	R, C := c.Block()
	W := C * c.Elem
	op := Op{Line: line, Comm: true, Times: times}
	if along == 1 {
		op.Describe = "no neighbour in this direction: no message"
		return op
	}
	var s Shape
	switch {
	case rows > 0 && cols > 0:
		s = Shape{Kind: Columns, W: W, K: cols, Elem: c.Elem, R: rows, Line: c.Line}
		op.Describe = fmt.Sprintf("the %d×%d corner", rows, cols)
	case rows > 0:
		s = Shape{Kind: Rows, W: W, K: rows, Line: c.Line}
		op.Describe = fmt.Sprintf("%d row(s) of %d bytes", rows, W)
	default:
		s = Shape{Kind: Columns, W: W, K: cols, Elem: c.Elem, R: R, Line: c.Line}
		op.Describe = fmt.Sprintf("%d column(s) of %d rows", cols, R)
	}
	f, _ := MessageFeatures(s)
	op.M, op.N, op.U = f.M, f.N, f.U
	return op
}

// stmt is a computation statement over whole blocks: ops per element,
// arrays read and written, distinct arrays touched.
func (c Conv) stmt(line string, times, opsPer, accessPer, arrays int64) Op {
	R, C := c.Block()
	return Op{Line: line, Times: times, Ops: opsPer * R * C, Access: accessPer * R * C, U: arrays * c.arrayLines(),
		Describe: fmt.Sprintf("%d op(s), %d load/store(s) per element, %d array(s)", opsPer, accessPer, arrays)}
}

// ConvShift is Figure 19's program for box size b: the image shifted b − 1
// times west, accumulating, then b − 1 times north: 2(b − 1) shifts of one
// column or one row, no scans.
func ConvShift(c Conv, b int64) ([]Op, error) {
	if err := c.checkB(b); err != nil {
		return nil, err
	}
	return []Op{
		c.stmt("BoxSum := Im; T := Im", 2, 0, 2, 2),
		c.shift("T := T@west", b-1, 0, 1, c.Pc),
		c.stmt("T := T@west (copy)", b-1, 0, 2, 1),
		c.stmt("BoxSum := BoxSum + T", b-1, 1, 3, 2),
		c.stmt("T := BoxSum", 1, 0, 2, 2),
		c.shift("T := T@north", b-1, 1, 0, c.Pr),
		c.stmt("T := T@north (copy)", b-1, 0, 2, 1),
		c.stmt("BoxSum := BoxSum + T", b-1, 1, 3, 2),
		c.stmt("BoxSum := BoxSum*w", 1, 1, 2, 1),
	}, nil
}

// ConvScan is Figure 18's program for box size b: a horizontal and a
// vertical parallel prefix, then three shifts by b (north, west and the
// north-west corner) combined in one statement. A scan along a mesh
// dimension of p processors is a local prefix, ceil(log2 p) messages of the
// block's last column (horizontal) or row (vertical), as section 6 says a
// horizontal scan sends a column and a vertical scan a row, and a local
// update adding the received prefix.
func ConvScan(c Conv, b int64) ([]Op, error) {
	if err := c.checkB(b); err != nil {
		return nil, err
	}
	steps := func(p int64) int64 {
		if p <= 1 {
			return 0
		}
		return int64(bits.Len64(uint64(p - 1))) // ceil(log2 p)
	}
	hx, vx := steps(c.Pc), steps(c.Pr)
	ops := []Op{
		c.stmt("BoxSum := +||[2] Im (local prefix)", 1, 1, 2, 2),
		c.shift("BoxSum := +||[2] Im (combine)", hx, 0, 1, c.Pc),
	}
	if hx > 0 {
		ops = append(ops, c.stmt("BoxSum := +||[2] Im (update)", 1, 1, 2, 1))
	}
	ops = append(ops,
		c.stmt("BoxSum := +||[1] BoxSum (local prefix)", 1, 1, 2, 1),
		c.shift("BoxSum := +||[1] BoxSum (combine)", vx, 1, 0, c.Pr),
	)
	if vx > 0 {
		ops = append(ops, c.stmt("BoxSum := +||[1] BoxSum (update)", 1, 1, 2, 1))
	}
	nwAlong := c.Pr * c.Pc // the corner comes from the diagonal neighbour
	if c.Pr == 1 || c.Pc == 1 {
		nwAlong = 1
	}
	return append(ops,
		c.shift("BoxSum@north", 1, b, 0, c.Pr),
		c.shift("BoxSum@west", 1, 0, b, c.Pc),
		c.shift("BoxSum@nw", 1, b, b, nwAlong),
		c.stmt("BoxSum := BoxSum − BoxSum@north − BoxSum@west + BoxSum@nw", 1, 3, 5, 1),
		c.stmt("BoxSum := BoxSum*w", 1, 1, 2, 1),
	), nil
}

// Point is both programs' predicted time at one box size.
type Point struct {
	B           int64   `json:"b"`
	Shift, Scan float64 `json:"-"`
	// Ratio is Shift/Scan, as the lines-touched paper Figure 14 plots it: below 1
	// Conv-Shift is faster.
	Ratio float64 `json:"ratio"`
}

// Curve is the comparison of the two programs under one model.
type Curve struct {
	Points []Point
	// Crossover is the smallest b at which Conv-Scan is faster than
	// Conv-Shift (0 when it never is up to the largest b), and Found says
	// whether there is one.
	Crossover int64
	Found     bool
}

// Compare costs both programs for b = 1..bmax under c.
func Compare(conv Conv, c Coef, bmax int64) (Curve, error) {
	if err := conv.Validate(); err != nil {
		return Curve{}, err
	}
	if hi := min(conv.MaxBlock(), 4096); bmax < 1 || bmax > hi {
		return Curve{}, rangeErr("bmax", "the largest box size", 1, hi, bmax)
	}
	if err := c.Validate(""); err != nil {
		return Curve{}, err
	}
	var cv Curve
	for b := int64(1); b <= bmax; b++ {
		sh, _ := ConvShift(conv, b)
		sc, _ := ConvScan(conv, b)
		p := Point{B: b, Shift: Cost(sh, c), Scan: Cost(sc, c)}
		if p.Scan > 0 {
			p.Ratio = p.Shift / p.Scan
		}
		cv.Points = append(cv.Points, p)
		if !cv.Found && p.Scan < p.Shift {
			cv.Crossover, cv.Found = b, true
		}
	}
	return cv, nil
}

// ExampleCoefficients are illustrative values, not measurements: the paper
// prints no fitted coefficients. The M1 example is round numbers (10 µs
// per message, 3.3 ns per byte, 100 ns per memory line touched). The
// standard example describes the same
// machine: its α and β are the least-squares S1 fit (StandardFit) to the
// times the M1 example gives for ExampleMessages, rows and line-wide
// columns, on which u = n/L, so the fit is exact: α' = α and β' = β + γ/L
// (10 µs and 3.3 ns + 100 ns/64 = 4.8625 ns). Its statement costs are M1's
// for statements that stream 4-byte elements through 64-byte lines, one
// line per 16 loads or stores: δ' = δ and β_mem' = β_mem + γ_mem·4/64 =
// 1 ns + 30 ns/16 = 2.875 ns. The two models agree on such messages and
// part where a message touches more lines than its bytes fill: a narrow
// column, one line per row. Users give their own, fitted to their
// measurements with the S1 and M1 terms (FitSets).
func ExampleCoefficients() (standard, withLines Coef) {
	withLines = Coef{Alpha: 10e-6, Beta: 3.3e-9, Gamma: 100e-9, Delta: 3.3e-9, BetaMem: 1e-9, GammaMem: 30e-9}
	standard = Coef{Delta: withLines.Delta, BetaMem: withLines.BetaMem + withLines.GammaMem*exampleElem/exampleLine}
	var err error
	standard.Alpha, standard.Beta, _, err = StandardFit(withLines, ExampleMessages())
	if err != nil {
		// Unreachable: the set is fixed and well posed. The exact values
		// keep the example usable all the same.
		standard.Alpha, standard.Beta = withLines.Alpha, withLines.Beta+withLines.Gamma/exampleLine
	}
	return
}

// The element and line size the example coefficients assume.
const (
	exampleElem = 4
	exampleLine = 64
)

// ExampleMessages are the messages the standard example is fitted to:
// 1, 2, 4 and 8 rows of a 1024×1024 array of 4-byte integers (W = 4096
// bytes), and 16, 32, 64 and 128 of its leftmost columns (one to eight
// whole lines of each of 256 rows), all starting on a line boundary:
// the contiguous or line-wide messages a ping-pong benchmark sends, each
// touching exactly n/L lines.
func ExampleMessages() []Shape {
	var out []Shape
	for k := int64(1); k <= 8; k *= 2 {
		out = append(out,
			Shape{Kind: Rows, W: 4096, K: k, Line: exampleLine},
			Shape{Kind: Columns, W: 4096, K: 16 * k, Elem: exampleElem, R: 256, Line: exampleLine})
	}
	return out
}

// StandardFit fits the standard model S1 (α + β·n, the lines-touched paper eq. 1) by
// least squares with engine/fit to the times M1 with coefficients m1
// gives the messages (α + β·n + γ·u, u exact at each shape's offset), and
// returns α and β: what someone who timed those messages on a machine that
// behaves like m1 would fit without lines touched.
func StandardFit(m1 Coef, messages []Shape) (alpha, beta float64, res *fit.Result, err error) {
	if err := m1.Validate("m1."); err != nil {
		return 0, 0, nil, err
	}
	rows := make([]Features, len(messages))
	y := make([]float64, len(messages))
	for i, s := range messages {
		if rows[i], err = MessageFeatures(s); err != nil {
			return 0, 0, nil, err
		}
		y[i] = m1.Alpha*float64(rows[i].M) + m1.Beta*float64(rows[i].N) + m1.Gamma*float64(rows[i].U)
	}
	terms, _ := SetTerms(S1, true)
	res, err = fit.Fit(Frame(rows, y, "t"), fit.Spec{Y: "t", Terms: terms, Weighting: fit.Absolute})
	if err != nil {
		return 0, 0, nil, err
	}
	return res.Model.Coef[0], res.Model.Coef[1], res, nil
}
