package fit

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	v := []float64{3, 1, 4, 1, 5}
	got := Summarize(v)
	if want := (Summary{N: 5, Mean: 2.8, Median: 3, Min: 1, Max: 5}); math.Abs(got.Mean-want.Mean) > 1e-15 || got.N != want.N || got.Median != want.Median || got.Min != want.Min || got.Max != want.Max {
		t.Errorf("Summarize(%v) = %+v, want %+v", v, got, want)
	}
	if v[0] != 3 || v[4] != 5 {
		t.Errorf("Summarize reordered its argument: %v", v)
	}
	if got := Summarize([]float64{4, 1, 2, 3}); got.Median != 2.5 {
		t.Errorf("median of an even sample: %v, want 2.5", got.Median)
	}
	if got := Summarize(nil); got != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v", got)
	}
}

// TestAgreement: relative errors and ratios of predictions against
// measurements, the relative error as a fit's rows have it.
func TestAgreement(t *testing.T) {
	measured := []float64{2, 1, 3}
	predicted := []float64{1, 1, 4}
	rel, ratio := Agreement(measured, predicted)
	if rel.N != 3 || rel.Max != 0.5 || rel.Min != 0 || math.Abs(rel.Median-1.0/3) > 1e-15 || math.Abs(rel.Mean-(0.5+0+1.0/3)/3) > 1e-15 {
		t.Errorf("relative errors %+v", rel)
	}
	if ratio.N != 3 || ratio.Min != 0.75 || ratio.Max != 2 || ratio.Median != 1 {
		t.Errorf("ratios %+v", ratio)
	}
	res, err := Fit(Frame{Names: []string{"x", "y"}, Cols: [][]float64{{1, 2, 3, 4}, {1.1, 1.9, 3.2, 3.9}}}, Spec{Y: "y", Terms: []Term{MustParseTerm("1"), MustParseTerm("x")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range res.Predictions {
		if got := RelError(pr.Y, pr.Pred); got != pr.RelError {
			t.Errorf("row %d: RelError %v, the fit's %v", pr.Row, got, pr.RelError)
		}
	}
}
