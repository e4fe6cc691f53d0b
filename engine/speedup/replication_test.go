package speedup_test

import (
	"math"
	"testing"

	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/presets"
)

func table(t *testing.T, id string) fit.Columns {
	t.Helper()
	d, err := presets.Dataset(id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEq14Replication fits eq. 14's terms on Table 6 with N <= 2^9 and
// P <= 2^4 (Chittor's thesis, section 5.2.4) by absolute least squares; the
// coefficients printed in the thesis are the expected values, rounded as
// printed.
func TestEq14Replication(t *testing.T) {
	d := table(t, "chittor-table6")
	m, _ := presets.FittedModelByID("chittor-eq14")
	terms, err := fit.ParseTerms(m.Terms)
	if err != nil {
		t.Fatal(err)
	}
	train, err := fit.ParseCond(m.Region)
	if err != nil {
		t.Fatal(err)
	}
	res, err := fit.Fit(d, fit.Spec{Y: "T", Terms: terms, Train: train, Weighting: fit.Absolute})
	if err != nil {
		t.Fatal(err)
	}
	// Printed: 14773, 146, 899, −4486, 22.6, 0.811. Tolerance: half a unit
	// in the last printed digit, relative.
	want := []struct{ v, tol float64 }{{14773, 0.5}, {146, 0.5}, {899, 0.5}, {-4486, 0.5}, {22.6, 0.1}, {0.811, 0.005}}
	for k, w := range want {
		if got := res.Model.Coef[k]; math.Abs(got-w.v) > w.tol {
			t.Errorf("coefficient of %s = %.4g, thesis prints %g", terms[k], got, w.v)
		}
	}
	if res.Train.N != 34 || res.Test.N != 51 {
		t.Errorf("train/test rows = %d/%d, want 34/51 (Table 6 cells with N <= 512, P <= 16, N >= P)", res.Train.N, res.Test.N)
	}
}

// TestRollOffMeasured checks the roll-off points read off Table 6 and
// Table 5 by hand: for N = 512 the measured time is least at P = 64
// (60486), Multi's estimate peaks at P = 128 (19.40); for N = 8192 both
// still rise at P = 256.
func TestRollOffMeasured(t *testing.T) {
	d6 := table(t, "chittor-table6")
	c, err := speedup.Measured(d6, "N", "P", "T", 512)
	if err != nil {
		t.Fatal(err)
	}
	if !c.RollOff.Found || c.RollOff.P != 64 {
		t.Errorf("Table 6, N=512: roll-off %v, want P = 64", c.RollOff)
	}
	c, _ = speedup.Measured(d6, "N", "P", "T", 8192)
	if c.RollOff.Found {
		t.Errorf("Table 6, N=8192: roll-off %v, want none up to P = 256", c.RollOff)
	}
	d5 := table(t, "chittor-table5")
	s, _ := d5.Column("S")
	n, _ := d5.Column("N")
	p, _ := d5.Column("P")
	var pts []speedup.Point
	for i := range s {
		if n[i] == 512 {
			pts = append(pts, speedup.Point{P: p[i], S: s[i]})
		}
	}
	if r := speedup.FindRollOff(pts); !r.Found || r.P != 128 {
		t.Errorf("Table 5, N=512: Multi's roll-off %v, want P = 128", r)
	}
}

// TestTheoreticRollOff: the section 5.2.1 model from Tables 3 and 4 rises
// until P = 128 for N = 512, as the thesis says ("the simple theoretic
// models predicted speedup will improve until 128 processors").
func TestTheoreticRollOff(t *testing.T) {
	d3 := table(t, "chittor-table3")
	d4 := table(t, "chittor-table4")
	ps, _ := d3.Column("P")
	seq, _ := d3.Column("seq")
	ns, _ := d4.Column("N")
	par, _ := d4.Column("par")
	parN := 0.0
	for i := range ns {
		if ns[i] == 512 {
			parN = par[i]
		}
	}
	var pts []speedup.Point
	for i := range ps {
		pts = append(pts, speedup.Point{P: ps[i], S: speedup.Theoretic(seq[0], seq[i], parN, ps[i])})
	}
	if r := speedup.FindRollOff(pts); !r.Found || r.P != 128 {
		t.Errorf("theoretic roll-off %v, want P = 128", r)
	}
	// TheoreticCurve gives the same points at the Ps asked for.
	curve := speedup.TheoreticCurve(ps, seq, parN, []float64{1, 4, 128, 3})
	if len(curve) != 3 || curve[0].P != 1 || curve[0].S != 1 || curve[2].P != 128 {
		t.Fatalf("TheoreticCurve at P = 1, 4, 128, 3: %+v", curve)
	}
	for _, c := range curve {
		for _, p := range pts {
			if p.P == c.P && (p.S != c.S || c.E != c.S/c.P) {
				t.Errorf("P = %g: TheoreticCurve %+v, Theoretic %g", c.P, c, p.S)
			}
		}
	}
	if got := speedup.TheoreticCurve(ps[1:], seq[1:], parN, ps); got != nil {
		t.Errorf("without Seq(1): %+v, want nil", got)
	}
}

// TestReplicationRollOff fits the thesis's bitonic-sort model (eq. 14) to
// Table 6 on its characterisation region and checks the roll-off it
// predicts at N = 512 against the measured one: with relative weighting
// (what the automatic choice takes, by cross-validation) both peak at
// P = 64, where absolute weighting peaks at 32; Amdahl's law with the
// model's serial fraction finds no roll-off at all up to P = 512. The
// values are those of the measured table (speedup 15.6 at P = 64).
func TestReplicationRollOff(t *testing.T) {
	d := table(t, "chittor-table6")
	m, _ := presets.FittedModelByID("chittor-eq14")
	terms, _ := fit.ParseTerms(m.Terms)
	train, _ := fit.ParseCond(m.Region)
	ps := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}
	work := fit.MustParseTerm("N*log2(N)^2")
	want := map[fit.Weighting]float64{fit.Absolute: 32, fit.Relative: 64, fit.Auto: 64}
	for _, w := range []fit.Weighting{fit.Absolute, fit.Relative, fit.Auto} {
		a, err := speedup.Analyze(speedup.Spec{Data: d, Terms: terms, Train: train, Weighting: w, Ns: []float64{512, 8192}, Ps: ps, Work: work})
		if err != nil {
			t.Fatal(err)
		}
		c := a.Curves[0]
		if c.N != 512 || !c.Measured.RollOff.Found || c.Measured.RollOff.P != 64 {
			t.Fatalf("measured roll-off at N = %g: %+v, want P = 64", c.N, c.Measured.RollOff)
		}
		if r := c.Predicted.RollOff; !r.Found || r.P != want[w] {
			t.Errorf("%s weighting: predicted roll-off %+v, want P = %g", w, r, want[w])
		}
		if c.AmdahlRollOff.Found {
			t.Errorf("%s weighting: Amdahl's law rolls off at P = %g; a fixed serial fraction never does", w, c.AmdahlRollOff.P)
		}
	}
}

// TestSearchBeatsThesis searches the vocabulary for a term set, validated
// only on the characterisation region, and requires it to predict the
// prediction region of Table 6 better (mean relative error) than the
// thesis's own model fitted on the same rows (39.1 % with relative
// weighting).
func TestSearchBeatsThesis(t *testing.T) {
	d := table(t, "chittor-table6")
	train, _ := fit.ParseCond("N <= 2^9 && P <= 2^4")
	m, _ := presets.FittedModelByID("chittor-eq14")
	terms, _ := fit.ParseTerms(m.Terms)
	paper, err := fit.Fit(d, fit.Spec{Y: "T", Terms: terms, Train: train, Weighting: fit.Auto})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []fit.Validation{{Extrapolate: []string{"N", "P"}}, {Folds: 10}} {
		for _, crit := range []fit.Criterion{fit.MeanRel, fit.MaxRel} {
			sr, err := fit.Search(d, fit.SearchSpec{Y: "T", Vocabulary: speedup.Vocabulary(), Always: []fit.Term{fit.MustParseTerm("1")},
				MaxTerms: 4, Train: train, Validation: v, Criterion: crit})
			if err != nil {
				t.Fatal(err)
			}
			b := sr.Best
			if b.Test.MeanRel >= paper.Test.MeanRel {
				t.Errorf("%s, criterion %d: the search's %s predicts the prediction region with mean error %.1f%%, the thesis's model %.1f%%",
					sr.Method, crit, b.Model, 100*b.Test.MeanRel, 100*paper.Test.MeanRel)
			}
		}
	}
}
