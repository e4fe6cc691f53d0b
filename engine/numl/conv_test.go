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
