package fit

import (
	"errors"
	"math"
	"sort"
	"strings"
	"testing"
)

// TestSearchRecoversPlantedTerms times a made-up program exactly by
// T = 5 + 3·N/P + 0.5·P·log2(P) over a grid of N and P: the search over a
// vocabulary of ten forms must choose exactly those terms and give back
// their coefficients.
func TestSearchRecoversPlantedTerms(t *testing.T) {
	var ns, ps, ys []float64
	for n := 16.0; n <= 1<<14; n *= 2 {
		for p := 1.0; p <= 64; p *= 2 {
			ns, ps = append(ns, n), append(ps, p)
			ys = append(ys, 5+3*n/p+0.5*p*math.Log2(p))
		}
	}
	data := Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{ns, ps, ys}}
	vocab, err := ParseTerms("N, N/P, P, P*log2(P), log2(P), N*log2(N), N/P*log2(N/P), P^2, N^2, log2(N)")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Validation{{Extrapolate: []string{"N", "P"}}, {Folds: 5}} {
		res, err := Search(data, SearchSpec{Y: "T", Vocabulary: vocab, Always: []Term{MustParseTerm("1")}, MaxTerms: 3,
			Weighting: Relative, Validation: v})
		if err != nil {
			t.Fatal(err)
		}
		got := TermStrings(res.Best.Model.Terms)
		sort.Strings(got)
		if strings.Join(got, ", ") != "1, N/P, P*log2(P)" {
			t.Fatalf("%s: chose %v", res.Method, got)
		}
		want := map[string]float64{"1": 5, "N/P": 3, "P*log2(P)": 0.5}
		for k, term := range res.Best.Model.Terms {
			if c := res.Best.Model.Coef[k]; math.Abs(c-want[term.String()]) > 1e-6*math.Max(1, want[term.String()]) {
				t.Errorf("%s: coefficient of %s = %g, want %g", res.Method, term, c, want[term.String()])
			}
		}
	}
}

// TestSearchProgressCountsAndStops checks that Progress sees every scored
// candidate of an exhaustive search, ending at its total, and that an
// error from it stops the search and is returned.
func TestSearchProgressCountsAndStops(t *testing.T) {
	var ns, ps, ys []float64
	for n := 16.0; n <= 1<<10; n *= 2 {
		for p := 1.0; p <= 16; p *= 2 {
			ns, ps = append(ns, n), append(ps, p)
			ys = append(ys, 5+3*n/p)
		}
	}
	data := Frame{Names: []string{"N", "P", "T"}, Cols: [][]float64{ns, ps, ys}}
	vocab, _ := ParseTerms("N, N/P, P, log2(P), N*log2(N)")
	spec := SearchSpec{Y: "T", Vocabulary: vocab, Always: []Term{MustParseTerm("1")}, MaxTerms: 2,
		Weighting: Relative, Validation: Validation{Folds: 3}}
	calls, last, lastTotal := 0, 0, 0
	spec.Progress = func(done, total int) error { calls++; last, lastTotal = done, total; return nil }
	res, err := Search(data, spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := 5 + 10; calls != want || last != want || lastTotal != want || res.Evaluated != want {
		t.Fatalf("progress: %d calls, last %d of %d, evaluated %d; want %d", calls, last, lastTotal, res.Evaluated, want)
	}
	errStop := errors.New("stop")
	calls = 0
	spec.Progress = func(done, total int) error {
		calls++
		if done == 3 {
			return errStop
		}
		return nil
	}
	if _, err := Search(data, spec); !errors.Is(err, errStop) || calls != 3 {
		t.Fatalf("stopped search: err %v after %d calls; want %v after 3", err, calls, errStop)
	}
}
