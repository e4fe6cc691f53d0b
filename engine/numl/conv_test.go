package numl

import (
	"errors"
	"math"
	"testing"
)

// small is an 8×8 image of 4-byte pixels on a 2×2 mesh with 16-byte lines:
// each processor holds a 4×4 block, rows of W = 16 bytes, one line each,
// so a block-sized array is 64 bytes = 4 lines.
var small = Conv{N: 8, Elem: 4, Pr: 2, Pc: 2, Line: 16}

// unit picks one feature: the cost under it is that feature's total.
func unit(field string) Coef {
	switch field {
	case "m":
		return Coef{Alpha: 1}
	case "n":
		return Coef{Beta: 1}
	case "u":
		return Coef{Gamma: 1}
	case "ops":
		return Coef{Delta: 1}
	case "access":
		return Coef{BetaMem: 1}
	}
	return Coef{GammaMem: 1}
}

// TestConvTotals checks each program's feature totals at b = 2 against a
// hand count of Figures 18 and 19 (16 elements per block, 4 lines per
// array):
//
// Conv-Shift: one west shift of a column (16 bytes, 4 lines: each row's
// element sits alone in its line) and one north shift of a row (16 bytes,
// 1 line) → m = 2, n = 32, u = 5. Statements: BoxSum := Im and T := Im (2 ×
// 32 accesses, 2 × 8 lines), one west copy (32, 4), one add (16 ops, 48, 8),
// T := BoxSum (32, 8), one north copy (32, 4), one add (16, 48, 8), *w (16,
// 32, 4) → ops 48, accesses 288, lines 52.
//
// Conv-Scan on 2×2: each scan has ceil(log2 2) = 1 step, a column (16 bytes,
// 4 lines) and a row (16, 1); then north by 2 rows (32 bytes, 2 lines), west
// by 2 columns (32 bytes, 4 lines: 8 bytes per row), the 2×2 corner (16
// bytes, 2 lines) → m = 5, n = 112, u = 13. Statements: local prefix (16,
// 32, 8), update (16, 32, 4), local prefix (16, 32, 4), update (16, 32, 4),
// the combination (48, 80, 4), *w (16, 32, 4) → ops 128, accesses
// 4·32 + 80 + 32 = 240, lines 28.
func TestConvTotals(t *testing.T) {
	want := map[string][2]float64{ // shift, scan
		"m": {2, 5}, "n": {32, 112}, "u": {5, 13},
		"ops": {48, 128}, "access": {288, 240}, "lines": {52, 28},
	}
	sh, err := ConvShift(small, 2)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ConvScan(small, 2)
	if err != nil {
		t.Fatal(err)
	}
	for f, w := range want {
		if got := Cost(sh, unit(f)); got != w[0] {
			t.Errorf("Conv-Shift %s = %v, hand count %v", f, got, w[0])
		}
		if got := Cost(sc, unit(f)); got != w[1] {
			t.Errorf("Conv-Scan %s = %v, hand count %v", f, got, w[1])
		}
	}
}

// TestCrossover: with only a per-message cost, Conv-Shift sends 2(b − 1)
// messages and Conv-Scan 5 (two scan steps, three shifts), so Conv-Scan is
// cheaper from 2(b − 1) > 5, b = 4. With only a per-line cost Conv-Shift
// touches 5(b − 1) lines (a column of 4 lines and a row of 1 per step) and
// Conv-Scan 5 (the scans' column and row) + b (north: b rows, a line each)
// + 4 (west: b·4 <= 16 bytes in each of 4 rows) + b (the corner's b rows) =
// 9 + 2b: 17 > 15 at b = 4, so there is no crossover up to the largest box.
func TestCrossover(t *testing.T) {
	cv, err := Compare(small, Coef{Alpha: 1}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !cv.Found || cv.Crossover != 4 {
		t.Errorf("messages only: %+v", cv)
	}
	// b = 1: no shifts at all against 5 messages; ratio 0.
	if cv.Points[0].Ratio != 0 || cv.Points[3].Ratio != 6.0/5 {
		t.Errorf("ratios %+v", cv.Points)
	}
	cv, _ = Compare(small, Coef{Gamma: 1}, 4)
	if cv.Found {
		t.Errorf("lines only: %+v", cv)
	}
	if got := cv.Points[3]; got.Shift != 15 || got.Scan != 17 {
		t.Errorf("lines only at b = 4: %+v, hand count 15 and 17", got)
	}
}

// TestOneProcessorColumn: on a 4×1 mesh nothing moves west, so Conv-Shift
// sends only its b − 1 north rows and the horizontal scan sends nothing:
// with messages only, Conv-Scan sends 2 (ceil(log2 4) = 2 vertical steps)
// + 1 (north) = 3, and the crossover is where b − 1 > 3, b = 5.
func TestOneProcessorColumn(t *testing.T) {
	c := Conv{N: 64, Elem: 4, Pr: 4, Pc: 1, Line: 64}
	cv, err := Compare(c, Coef{Alpha: 1}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !cv.Found || cv.Crossover != 5 {
		t.Errorf("%+v", cv)
	}
}

func TestConvValidate(t *testing.T) {
	std, withLines := ExampleCoefficients()
	for _, c := range []struct {
		conv  Conv
		b     int64
		coef  Coef
		field string
	}{
		{Conv{N: 0, Elem: 4, Pr: 1, Pc: 1, Line: 64}, 1, std, "N"},
		{Conv{N: 1 << 21, Elem: 4, Pr: 1, Pc: 1, Line: 64}, 1, std, "N"},
		{Conv{N: 8, Elem: 0, Pr: 1, Pc: 1, Line: 64}, 1, std, "w"},
		{Conv{N: 8, Elem: 4, Pr: 9, Pc: 1, Line: 64}, 1, std, "pr"},
		{Conv{N: 8, Elem: 4, Pr: 1, Pc: 0, Line: 64}, 1, std, "pc"},
		{Conv{N: 8, Elem: 4, Pr: 1, Pc: 1, Line: 0}, 1, std, "L"},
		{small, 5, std, "bmax"},
		{small, 0, std, "bmax"},
		{small, 3, Coef{Alpha: math.NaN()}, "alpha"},
		{small, 3, Coef{Gamma: -1}, "gamma"},
		{small, 3, Coef{BetaMem: math.Inf(1)}, "beta_mem"},
	} {
		_, err := Compare(c.conv, c.coef, c.b)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v b=%d: %v, want an error naming %s", c.conv, c.b, err, c.field)
		}
	}
	if _, err := ConvShift(small, 5); err == nil {
		t.Error("b beyond the block was accepted")
	}
	if _, err := Compare(small, withLines, 4); err != nil {
		t.Error(err)
	}
}

// TestExampleStandardIsS1FitOfM1: the standard example is the least-squares
// S1 fit to the M1 example's times for ExampleMessages. By hand: every one
// of those messages touches u = n/64 lines (rows of 4096 bytes from a line
// boundary; columns 64·j bytes wide of rows 4096 bytes apart), so M1 gives
// t = 10 µs + (3.3 ns + 100 ns/64)·n = 10 µs + 4.8625 ns·n, a straight line
// in n that S1 fits exactly: α = 10 µs, β = 4.8625 ns. Statements that
// stream 4-byte elements touch a 64-byte line per 16 accesses: β_mem =
// 1 ns + 30 ns/16 = 2.875 ns.
func TestExampleStandardIsS1FitOfM1(t *testing.T) {
	std, m1 := ExampleCoefficients()
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }
	if !near(std.Alpha, 10e-6) || !near(std.Beta, 4.8625e-9) || std.Gamma != 0 || std.GammaMem != 0 ||
		std.Delta != m1.Delta || !near(std.BetaMem, 2.875e-9) {
		t.Errorf("standard example %s, want alpha=10us, beta=4.8625ns, delta=3.3ns, beta_mem=2.875ns", std)
	}
	// Reproduces M1 exactly on row messages of whole lines.
	for _, k := range []int64{1, 3, 8, 100} {
		s := Shape{Kind: Rows, W: 4096, K: k, Line: 64}
		f, _ := MessageFeatures(s)
		op := Op{Comm: true, M: f.M, N: f.N, U: f.U}
		if a, b := op.Seconds(std), op.Seconds(m1); !near(a, b) {
			t.Errorf("%d rows: standard %g s, M1 %g s", k, a, b)
		}
	}
	// And parts from it on a narrow column: one 4-byte column of 256 rows
	// of 128 bytes is n = 1024 bytes on u = 256 lines. M1: 10 µs + 3.3 ns
	// × 1024 + 100 ns × 256 = 38.9792 µs; standard: 10 µs + 4.8625 ns ×
	// 1024 = 14.9792 µs.
	f, _ := MessageFeatures(Shape{Kind: Columns, W: 128, K: 1, Elem: 4, R: 256, Line: 64})
	op := Op{Comm: true, M: f.M, N: f.N, U: f.U}
	if a, b := op.Seconds(std), op.Seconds(m1); !near(a, 14.9792e-6) || !near(b, 38.9792e-6) {
		t.Errorf("narrow column: standard %g s, M1 %g s", a, b)
	}
}

// TestStandardFitLeastSquares checks StandardFit on a set where S1 cannot
// be exact against the normal equations solved by hand. With γ = 1 and
// α = β = 0, M1's time is u: a row of 64 bytes (n = 64, u = 1), a column
// of 4 bytes from 64 rows 64 bytes apart (n = 256, u = 64) and a row of
// 128 bytes (n = 128, u = 2). Centred: mean n = 448/3, mean u = 67/3;
// Sxy = sum (n − n̄)(u − ū) = 64·1 + 256·64 + 128·2 − 448·67/3 = 16704 −
// 30016/3 = 20096/3; Sxx = 64² + 256² + 128² − 448²/3 = 86016 − 200704/3
// = 57344/3; β = 20096/57344 = 0.350446…; α = ū − β·n̄ = 67/3 − β·448/3.
func TestStandardFitLeastSquares(t *testing.T) {
	shapes := []Shape{
		{Kind: Rows, W: 64, K: 1, Line: 64},
		{Kind: Columns, W: 64, K: 1, Elem: 4, R: 64, Line: 64},
		{Kind: Rows, W: 128, K: 1, Line: 64},
	}
	a, b, res, err := StandardFit(Coef{Gamma: 1e-6}, shapes)
	if err != nil {
		t.Fatal(err)
	}
	wantB := 20096.0 / 57344 * 1e-6
	wantA := (67.0/3 - 20096.0/57344*448/3) * 1e-6
	if math.Abs(b-wantB) > 1e-12*wantB || math.Abs(a-wantA) > 1e-9*math.Abs(wantA) || res.Train.N != 3 {
		t.Errorf("alpha %g, beta %g; want %g, %g", a, b, wantA, wantB)
	}
	if _, _, _, err := StandardFit(Coef{Gamma: -1}, shapes); err == nil {
		t.Error("a negative gamma was accepted")
	}
	if _, _, _, err := StandardFit(Coef{Gamma: 1}, shapes[:1]); err == nil {
		t.Error("one message fitted two terms")
	}
}

// TestExampleCrossoverDisagrees: on an 8×32 mesh over a 1024×1024 image
// (blocks of 128 rows of 32 pixels, so a column message carries 512 bytes
// on 128 lines) the two examples predict different crossovers, and the
// difference comes from the messages' lines: with M1's statement costs
// and the standard model's message costs the crossover is the standard
// model's.
func TestExampleCrossoverDisagrees(t *testing.T) {
	std, m1 := ExampleCoefficients()
	conv := Conv{N: 1024, Elem: 4, Pr: 8, Pc: 32, Line: 64}
	a, err := Compare(conv, std, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Compare(conv, m1, 10)
	mixed := m1
	mixed.Beta, mixed.Gamma = std.Beta, 0
	c, _ := Compare(conv, mixed, 10)
	if a.Crossover != 3 || b.Crossover != 4 || c.Crossover != 3 {
		t.Errorf("crossovers: standard %d, M1 %d, M1 statements with standard messages %d; want 3, 4, 3", a.Crossover, b.Crossover, c.Crossover)
	}
}
