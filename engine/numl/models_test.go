package numl

import (
	"errors"
	"math"
	"testing"

	"memwall/engine/fit"
)

// syntheticMessages makes rows and columns transfers of square-ish arrays
// in the spirit of the lines-touched paper's section 4.4 (matrices up to 4000 wide, 1 to 200
// rows or columns), with times from a known M1 model, t = α + β·n + γ·u.
// The test recovers α, β, γ: the generating values are the independent
// route. The paper prints no measured data or fitted coefficients (Table 2
// has only s_e and D, with scale factors our copy does not show), so its
// numbers cannot be refitted here.
func syntheticMessages(alpha, beta, gamma float64) ([]Features, []float64) {
	var rows []Features
	var y []float64
	for _, side := range []int64{100, 250, 500, 1000, 2000, 4000} {
		for _, k := range []int64{1, 2, 5, 10, 50, 100, 200} {
			if k > side {
				continue
			}
			for _, s := range []Shape{
				{Kind: Rows, W: 4 * side, K: k, Line: 64},
				{Kind: Columns, W: 4 * side, K: k, Elem: 4, R: side, Line: 64},
			} {
				f, err := MessageFeatures(s)
				if err != nil {
					panic(err)
				}
				rows = append(rows, f)
				y = append(y, alpha+beta*float64(f.N)+gamma*float64(f.U))
			}
		}
	}
	return rows, y
}

func TestFitSetsRecoversM1(t *testing.T) {
	const alpha, beta, gamma = 20e-6, 5e-9, 80e-9
	rows, y := syntheticMessages(alpha, beta, gamma)
	frame := Frame(rows, y, "t")
	// Train on the even rows of the table, test on the odd ones: a
	// condition on a row column is the engine's train/test split.
	idx := make([]float64, len(rows))
	for i := range idx {
		idx[i] = float64(i % 2)
	}
	frame.Names = append(frame.Names, "odd")
	frame.Cols = append(frame.Cols, idx)
	train, err := fit.ParseCond("odd == 0")
	if err != nil {
		t.Fatal(err)
	}
	fits, err := FitSets(frame, "t", train, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != 6 {
		t.Fatalf("%d sets", len(fits))
	}
	byName := map[string]SetFit{}
	for _, f := range fits {
		byName[f.Set.Name] = f
	}
	m1 := byName[M1]
	if m1.Err != nil {
		t.Fatal(m1.Err)
	}
	want := []float64{alpha, beta, gamma}
	for i, c := range m1.Result.Model.Coef {
		if math.Abs(c-want[i]) > 1e-6*want[i] {
			t.Errorf("M1 coefficient %s = %g, generated with %g", m1.Result.Model.Terms[i], c, want[i])
		}
	}
	if got := fit.TermStrings(m1.Result.Model.Terms); len(got) != 3 || got[0] != "1" || got[2] != "u" {
		t.Errorf("per-message M1 terms %v", got)
	}
	if m1.Result.Test.D > 1e-12 || m1.Result.Test.MaxRel > 1e-6 {
		t.Errorf("M1 on its own data: D = %g, max rel %g", m1.Result.Test.D, m1.Result.Test.MaxRel)
	}
	// The standard model cannot tell a column from a row of the same bytes
	// (section 3.1), so it misses on the test set: D stays small because
	// the largest messages dominate the sums, but the small column
	// transfers are off by tens of per cent.
	s1 := byName[S1]
	if s1.Err != nil || s1.Result.Test.MeanRel < 0.1 || s1.Result.Test.SE < 10*m1.Result.Test.SE {
		t.Errorf("S1: %+v %v", s1.Result.Test, s1.Err)
	}
	// Per message, S3 has no cross term left: same terms as S2.
	s2, s3 := fit.TermStrings(byName[S2].Result.Model.Terms), fit.TermStrings(byName[S3].Result.Model.Terms)
	if len(s2) != len(s3) {
		t.Errorf("S2 %v, S3 %v", s2, s3)
	}
}

// TestFitSetsMessages: with several messages per row the message count is
// the column of α (eq. 1, T = α·m + β·n + γ·u).
func TestFitSetsMessages(t *testing.T) {
	var rows []Features
	var y []float64
	for m := int64(1); m <= 8; m *= 2 {
		for _, n := range []int64{64, 640, 6400, 64000} {
			for _, u := range []int64{n / 64, n / 4} {
				rows = append(rows, Features{M: m, N: n, U: u})
				y = append(y, 15e-6*float64(m)+4e-9*float64(n)+60e-9*float64(u))
			}
		}
	}
	fits, err := FitSets(Frame(rows, y, "t"), "t", fit.Cond{}, []string{M1})
	if err != nil || fits[0].Err != nil {
		t.Fatal(err, fits[0].Err)
	}
	got := fits[0].Result.Model
	if ts := fit.TermStrings(got.Terms); ts[0] != "m" {
		t.Errorf("terms %v", ts)
	}
	for i, want := range []float64{15e-6, 4e-9, 60e-9} {
		if math.Abs(got.Coef[i]-want) > 1e-6*want {
			t.Errorf("coef %d = %g, want %g", i, got.Coef[i], want)
		}
	}
	// Trained on single messages only, m is constant where the fit sees
	// it: the per-message forms are used (m and m² would be one column),
	// and the sets fit (M3 is left out: on these rows u is n/64 or n/4,
	// so n·u is a combination of n² and u²).
	one, _ := fit.ParseCond("m == 1")
	fits, err = FitSets(Frame(rows, y, "t"), "t", one, []string{S1, S2, S3, M1, M2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fits {
		if f.Err != nil || fit.TermStrings(f.Result.Model.Terms)[0] != "1" {
			t.Errorf("%s on m == 1: %v", f.Set.Name, f.Err)
		}
	}
	bad, _ := fit.ParseCond("q == 1")
	var fe *FieldError
	if _, err := FitSets(Frame(rows, y, "t"), "t", bad, nil); !errors.As(err, &fe) || fe.Field != "train" {
		t.Errorf("a condition on a missing column: %v", err)
	}
}

func TestFitSetsErrors(t *testing.T) {
	f := fit.Frame{Names: []string{"n", "t"}, Cols: [][]float64{{1, 2}, {1, 2}}}
	var fe *FieldError
	if _, err := FitSets(f, "t", fit.Cond{}, nil); !errors.As(err, &fe) || fe.Field != "u" {
		t.Errorf("missing u: %v", err)
	}
	if _, err := FitSets(f, "time", fit.Cond{}, nil); !errors.As(err, &fe) || fe.Field != "y" {
		t.Errorf("missing y: %v", err)
	}
	f = fit.Frame{Names: []string{"n", "u", "t"}, Cols: [][]float64{{1, 2}, {1, 2}, {1, 2}}}
	if _, err := FitSets(f, "t", fit.Cond{}, []string{"M4"}); !errors.As(err, &fe) || fe.Field != "model" {
		t.Errorf("unknown set: %v", err)
	}
	// Two rows, six terms: the fit refuses, it does not guess.
	fits, err := FitSets(f, "t", fit.Cond{}, []string{M3})
	if err != nil || !errors.Is(fits[0].Err, fit.ErrTooFewPoints) {
		t.Errorf("too few points: %v %v", err, fits[0].Err)
	}
}

// TestMessageCoef reads S1 and M1 fits as coefficient lists: S1 over
// (m, n) and M1 over (1, n, u) by hand, a negative fitted value set to 0
// and named, and a model with a quadratic term refused.
func TestMessageCoef(t *testing.T) {
	s1, _ := fit.NewModel("m, n", 25e-6, 0.5e-9)
	c, clamped, err := MessageCoef(s1)
	if err != nil || c != (Coef{Alpha: 25e-6, Beta: 0.5e-9}) || len(clamped) != 0 {
		t.Errorf("S1: %+v %v %v", c, clamped, err)
	}
	m1, _ := fit.NewModel("1, n, u", 3e-6, -0.25e-9, 40e-9)
	c, clamped, err = MessageCoef(m1)
	if err != nil || c != (Coef{Alpha: 3e-6, Gamma: 40e-9}) || len(clamped) != 1 || clamped[0] != "beta = -250 ps" {
		t.Errorf("M1: %+v %q %v", c, clamped, err)
	}
	m2, _ := fit.NewModel("1, n, u, n^2", 1, 1, 1, 1)
	if _, _, err := MessageCoef(m2); err == nil {
		t.Error("M2 read as message costs")
	}
}
