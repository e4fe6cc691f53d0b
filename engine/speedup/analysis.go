package speedup

import (
	"fmt"

	"memwall/engine/fit"
)

// VocabularyText is the default term vocabulary for T(N, P) (docs/readings.md
// section 3.4): the forms Chittor's thesis's analysis produces for process
// creation and barriers (P, P·log P), the parallel merge core
// (N/P·log²P), local sorting (N/P·log²(N/P)) and its repetition
// (log P·N/P·log²(N/P)), with neighbours of each in Extra-P's normal form.
const VocabularyText = "P, P*log2(P), P*log2(P)^2, log2(P), log2(P)^2, N/P, N/P*log2(P), N/P*log2(P)^2, " +
	"N/P*log2(N/P), N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P), log2(P)*N/P*log2(N/P)^2, N/P*log2(N)^2, " +
	"log2(N)^2, N*log2(N), N"

// Vocabulary returns VocabularyText parsed.
func Vocabulary() []fit.Term {
	t, err := fit.ParseTerms(VocabularyText)
	if err != nil {
		panic(err)
	}
	return t
}

// Spec is what the Speedup page asks for.
type Spec struct {
	Data fit.Columns
	// Column names; empty means "N", "P", "T".
	N, P, T   string
	Terms     []fit.Term
	Train     fit.Cond
	Weighting fit.Weighting
	// Ns are the problem sizes to draw curves for; Ps the processor counts
	// (sorted, duplicates removed; P = 1 is always included for T(N, 1)).
	Ns, Ps []float64
	// Fixed parameters other than N and P (e.g. the buffer size B).
	Fixed map[string]float64
	// Work is W(N) for Sun–Ni's G(P) = W(P·N)/W(N); the zero Term leaves
	// the memory-bounded curve out.
	Work fit.Term
}

// NCurve holds, for one problem size, every speedup estimate on the chart.
type NCurve struct {
	N         float64
	Predicted Curve
	// Measured is empty (no Points) when the data have no rows for N with
	// a P = 1 row.
	Measured Curve
	// SerialFraction is the model's Seq(N,1)/T(N,1), used by the laws.
	SerialFraction float64
	// Amdahl, Gustafson and SunNi are given per Predicted.Points' P.
	Amdahl, Gustafson, SunNi []float64
	AmdahlRollOff            RollOff
}

// Analysis is everything the Speedup page shows.
type Analysis struct {
	Fit    *fit.Result
	Curves []NCurve
}

// Analyze fits the terms and draws the curves.
func Analyze(s Spec) (*Analysis, error) {
	if s.N == "" {
		s.N = "N"
	}
	if s.P == "" {
		s.P = "P"
	}
	if s.T == "" {
		s.T = "T"
	}
	if s.N != "N" || s.P != "P" {
		return nil, fmt.Errorf("the terms are written in N and P; rename columns %q and %q to N and P when importing", s.N, s.P)
	}
	res, err := fit.Fit(s.Data, fit.Spec{Y: s.T, Terms: s.Terms, Train: s.Train, Weighting: s.Weighting})
	if err != nil {
		return nil, err
	}
	a := &Analysis{Fit: res}
	ps := append([]float64{1}, s.Ps...)
	for _, n := range s.Ns {
		pc, err := Predict(res.Model, n, ps, s.Fixed)
		if err != nil {
			return nil, err
		}
		nc := NCurve{N: n, Predicted: pc}
		if mc, err := Measured(s.Data, s.N, s.P, s.T, n); err == nil {
			nc.Measured = mc
		}
		f, err := SerialFraction(res.Model, n, s.Fixed)
		if err != nil {
			return nil, err
		}
		nc.SerialFraction = f
		var am []Point
		for _, pt := range pc.Points {
			sa := Amdahl(f, pt.P)
			nc.Amdahl = append(nc.Amdahl, sa)
			am = append(am, Point{P: pt.P, S: sa})
			nc.Gustafson = append(nc.Gustafson, Gustafson(f, pt.P))
			if s.Work.Valid() {
				g, err := WorkGrowth(s.Work, n, pt.P)
				if err != nil {
					return nil, err
				}
				nc.SunNi = append(nc.SunNi, SunNi(f, g, pt.P))
			}
		}
		nc.AmdahlRollOff = FindRollOff(am)
		a.Curves = append(a.Curves, nc)
	}
	return a, nil
}
