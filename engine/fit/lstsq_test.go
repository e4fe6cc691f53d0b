package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// naive solves the normal equations AᵀA x = Aᵀb by Gaussian elimination with
// partial pivoting: an independent route, fine on small well-conditioned
// problems (its error grows with cond², which is why the package does not
// use it).
func naive(A [][]float64, b []float64) []float64 {
	p := len(A)
	M := make([][]float64, p)
	for i := range M {
		M[i] = make([]float64, p+1)
		for j := 0; j < p; j++ {
			for r := range b {
				M[i][j] += A[i][r] * A[j][r]
			}
		}
		for r := range b {
			M[i][p] += A[i][r] * b[r]
		}
	}
	for k := 0; k < p; k++ {
		piv := k
		for i := k + 1; i < p; i++ {
			if math.Abs(M[i][k]) > math.Abs(M[piv][k]) {
				piv = i
			}
		}
		M[k], M[piv] = M[piv], M[k]
		for i := k + 1; i < p; i++ {
			f := M[i][k] / M[k][k]
			for j := k; j <= p; j++ {
				M[i][j] -= f * M[k][j]
			}
		}
	}
	x := make([]float64, p)
	for i := p - 1; i >= 0; i-- {
		s := M[i][p]
		for j := i + 1; j < p; j++ {
			s -= M[i][j] * x[j]
		}
		x[i] = s / M[i][i]
	}
	return x
}

// frame builds N, P columns over a grid and T from known coefficients.
func gridFrame(terms []Term, coef []float64, noise float64, seed uint64) Frame {
	rng := rand.New(rand.NewPCG(seed, 1))
	var N, P, T []float64
	for n := 8.0; n <= 4096; n *= 2 {
		for p := 1.0; p <= 64 && p <= n; p *= 2 {
			N, P = append(N, n), append(P, p)
			vals := map[string]float64{"N": n, "P": p}
			t := 0.0
			for k, term := range terms {
				v, _ := term.EvalMap(vals)
				t += coef[k] * v
			}
			T = append(T, t*(1+noise*rng.NormFloat64()))
		}
	}
	return Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{N, P, T}}
}

func TestFitExact(t *testing.T) {
	cases := []struct {
		terms string
		coef  []float64
		tol   float64 // relative, per coefficient
	}{
		{"1, N", []float64{3, 0.5}, 1e-12},
		{"1, N/P*log2(P)^2, P*log2(P), P, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2", []float64{14773, 146, 899, -4486, 22.6, 0.811}, 1e-9},
		{"1, N*log2(N), N, log2(N)^2", []float64{341, 31.23, -210.81, 403.2}, 1e-9},
		{"N^2, N^0.5, 1/P", []float64{1e-6, 7, 1e3}, 1e-9},
	}
	for _, c := range cases {
		terms, err := ParseTerms(c.terms)
		if err != nil {
			t.Fatal(err)
		}
		f := gridFrame(terms, c.coef, 0, 1)
		for _, w := range []Weighting{Absolute, Relative} {
			res, err := Fit(f, Spec{Y: "T", Terms: terms, Weighting: w})
			if err != nil {
				t.Fatalf("%s: %v", c.terms, err)
			}
			for k, want := range c.coef {
				if got := res.Model.Coef[k]; math.Abs(got-want) > c.tol*math.Abs(want) {
					t.Errorf("%s (%s): coef of %s = %.15g, want %g", c.terms, w, terms[k], got, want)
				}
			}
			if res.Train.MaxRel > 1e-9 {
				t.Errorf("%s: max relative error %g on exact data", c.terms, res.Train.MaxRel)
			}
		}
	}
}

// With 1% multiplicative noise the coefficients stay within a few standard
// errors; on a 60-point grid the well-separated model below recovers them
// to 5%.
func TestFitNoise(t *testing.T) {
	terms, _ := ParseTerms("1, N/P, P*log2(P)")
	coef := []float64{500, 20, 30}
	f := gridFrame(terms, coef, 0.01, 7)
	res, err := Fit(f, Spec{Y: "T", Terms: terms, Weighting: Relative})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range coef {
		if got := res.Model.Coef[k]; math.Abs(got-want) > 0.05*math.Abs(want) {
			t.Errorf("coef of %s = %g, want %g ± 5%%", terms[k], got, want)
		}
	}
	if res.Train.MedianRel > 0.02 || res.Train.MedianRel < 0.002 {
		t.Errorf("median relative error %g, want about the noise level 0.01", res.Train.MedianRel)
	}
}

func TestAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		m, p := 5+rng.IntN(20), 1+rng.IntN(5)
		if m < p {
			m = p
		}
		A := make([][]float64, p)
		for k := range A {
			A[k] = make([]float64, m)
			for i := range A[k] {
				A[k][i] = rng.Float64()*2 - 1
			}
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		labels := make([]string, p)
		for k := range labels {
			labels[k] = string(rune('a' + k))
		}
		sol, err := LeastSquares(A, b, nil, labels)
		if err != nil {
			t.Fatal(err)
		}
		want := naive(A, b)
		for k := range want {
			if math.Abs(sol.Coef[k]-want[k]) > 1e-8*(1+math.Abs(want[k])) {
				t.Errorf("trial %d: x[%d] = %.12g, normal equations give %.12g", trial, k, sol.Coef[k], want[k])
			}
		}
	}
}

func TestRankDeficient(t *testing.T) {
	terms, _ := ParseTerms("1, P, N, 2*P")
	f := gridFrame(terms, []float64{1, 2, 3, 0}, 0, 1)
	_, err := Fit(f, Spec{Y: "T", Terms: terms, Weighting: Absolute})
	if !errors.Is(err, ErrRankDeficient) {
		t.Fatalf("err = %v, want rank deficiency", err)
	}
	for _, want := range []string{`"P"`, `"2*P"`, "linearly dependent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %s", err, want)
		}
	}
	if strings.Contains(err.Error(), `"N"`) {
		t.Errorf("message %q names N, which is not part of the dependency", err)
	}
	// A term that is zero on every training row (log2(P) with P = 1 only).
	c, _ := ParseCond("P == 1")
	terms, _ = ParseTerms("1, N, log2(P)")
	_, err = Fit(f, Spec{Y: "T", Terms: terms, Train: c, Weighting: Absolute})
	if !errors.Is(err, ErrRankDeficient) || !strings.Contains(err.Error(), `"log2(P)" is zero on every row`) {
		t.Errorf("err = %v", err)
	}
}

// N and N·log2(N)^1e-5 = N·(1 + 1e-5·ln log2 N + ...) differ by about 1e-5
// relative on the grid: the columns are not dependent but nearly so, with a
// condition number between WarnCond and RankCond.
func TestIllConditioned(t *testing.T) {
	terms, err := ParseTerms("1, N, N*log2(N)^0.00001")
	if err != nil {
		t.Fatal(err)
	}
	f := gridFrame(terms[:2], []float64{5, 2}, 0, 1)
	res, err := Fit(f, Spec{Y: "T", Terms: terms, Weighting: Absolute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cond %.3g: %v", res.Cond, res.Warnings)
	if res.Cond < WarnCond || len(res.Warnings) == 0 {
		t.Fatalf("cond %g, warnings %v: want a near-collinearity warning", res.Cond, res.Warnings)
	}
	w := res.Warnings[0]
	for _, want := range []string{`"N"`, `"N*log2(N)^0.00001"`, "nearly collinear"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %s", w, want)
		}
	}
}

func TestTooFewPoints(t *testing.T) {
	terms, _ := ParseTerms("1, N, P")
	f := Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{{1, 2}, {1, 1}, {3, 4}}}
	_, err := Fit(f, Spec{Y: "T", Terms: terms})
	if !errors.Is(err, ErrTooFewPoints) || !strings.Contains(err.Error(), "2 training points for 3 terms") {
		t.Errorf("err = %v", err)
	}
}

func BenchmarkFit10k10(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 10000
	N, P, T := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range N {
		N[i] = math.Exp2(float64(3 + rng.IntN(20)))
		P[i] = math.Exp2(float64(rng.IntN(10)))
		T[i] = 1000 + 3*N[i]/P[i]*math.Log2(N[i]) + 50*P[i] + rng.NormFloat64()
	}
	f := Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{N, P, T}}
	terms, _ := ParseTerms("1, P, P*log2(P), N/P, N/P*log2(P)^2, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2, log2(N)^2, N*log2(N), N")
	for _, w := range []Weighting{Absolute, Auto} {
		b.Run(w.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(f, Spec{Y: "T", Terms: terms, Weighting: w}); err != nil && !errors.Is(err, ErrRankDeficient) {
					b.Fatal(err)
				}
			}
		})
	}
}

// A fit whose coefficient comes out negative, or whose mean error is past
// half the measured value, says so; a good one says nothing.
func TestDoubts(t *testing.T) {
	good := Frame{Names: []string{"x", "y"}, Cols: [][]float64{{1, 2, 3, 4}, {2, 4, 6, 8}}}
	bad := Frame{Names: []string{"x", "y"}, Cols: [][]float64{{1, 2, 3, 4}, {10, 1, 10, 1}}}
	terms, _ := ParseTerms("1, x")
	r, err := Fit(good, Spec{Y: "y", Terms: terms})
	if err != nil || len(r.Doubts()) != 0 {
		t.Errorf("y = 2x: doubts %v, %v", r.Doubts(), err)
	}
	r, err = Fit(bad, Spec{Y: "y", Terms: terms, Weighting: Absolute})
	if err != nil {
		t.Fatal(err)
	}
	ds := strings.Join(r.Doubts(), "; ")
	if !strings.Contains(ds, "negative coefficient for x") || !strings.Contains(ds, "mean error") {
		t.Errorf("zig-zag data: doubts %q", ds)
	}
}
