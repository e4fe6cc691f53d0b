package fit_test

import (
	"fmt"

	"memwall/engine/fit"
)

// grid is T(N, P) = 2 + 3·N/P + 0.5·P measured on N = 2^6..2^11 and
// P = 1..32, a run time with a parallel part and a per-processor cost.
func grid() fit.Frame {
	var ns, ps, ts []float64
	for n := 64.0; n <= 2048; n *= 2 {
		for p := 1.0; p <= 32; p *= 2 {
			ns, ps, ts = append(ns, n), append(ps, p), append(ts, 2+3*n/p+0.5*p)
		}
	}
	return fit.Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{ns, ps, ts}}
}

// Fit the terms on the small runs and judge the model on the large ones
// it did not see.
func ExampleFit() {
	terms, _ := fit.ParseTerms("1, N/P, P")
	train, _ := fit.ParseCond("N <= 2^9 && P <= 2^4")
	res, err := fit.Fit(grid(), fit.Spec{Y: "T", Terms: terms, Train: train, Weighting: fit.Absolute})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range res.Model.Terms {
		fmt.Printf("%s: %.3f\n", t, res.Model.Coef[k])
	}
	fmt.Println("training rows:", res.Train.N, "test rows:", res.Test.N)
	fmt.Println("exact on the test rows:", res.Test.MaxRel < 1e-9)
	// Output:
	// 1: 2.000
	// N/P: 3.000
	// P: 0.500
	// training rows: 20 test rows: 16
	// exact on the test rows: true
}

// Search chooses the terms from a vocabulary by their error on held-out
// training rows; the constant is in every candidate.
func ExampleSearch() {
	res, err := fit.Search(grid(), fit.SearchSpec{
		Y:          "T",
		Always:     []fit.Term{fit.MustParseTerm("1")},
		Vocabulary: []fit.Term{fit.MustParseTerm("N/P"), fit.MustParseTerm("P"), fit.MustParseTerm("N"), fit.MustParseTerm("log2(P)")},
		MaxTerms:   2,
		Weighting:  fit.Absolute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fit.TermStrings(res.Candidates[0].Terms), res.Evaluated, res.Exhaustive)
	// Output: [1 N/P P] 10 true
}
