package ranking

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/hier"
)

// Spearman's rho against values worked by hand: identical orders give 1,
// reversed give -1, and for x = 1..5, y = (2, 1, 4, 3, 5) the rank
// differences are (1, 1, 1, 1, 0), so rho = 1 − 6·4/(5·24) = 0.8.
func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{10, 20, 30}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.8},
		{[]float64{1, 1, 1}, []float64{1, 2, 3}, 0},
		{[]float64{1}, []float64{1}, 0},
		// Ties: ranks of (1, 2, 2, 3) are (1, 2.5, 2.5, 4); Pearson of those with 1..4 is 0.9487.
		{[]float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}, 0.9487},
	} {
		if got := Spearman(tc.x, tc.y); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("Spearman(%v, %v) = %.4f, want %.4f", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestMisordered: the pairs a prediction orders against the measurement,
// worked by hand. Measured a < b < c < d; predicted a < c < b, d first:
// (b, c) is swapped and d is predicted faster than all three.
func TestMisordered(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	meas := []float64{1, 2, 3, 4}
	for _, tc := range []struct {
		pred []float64
		want string
	}{
		{[]float64{10, 20, 30, 40}, ""},
		{[]float64{1, 3, 2, 0.5}, "a < d, b < c, b < d, c < d"},
		// A tie in the prediction orders nothing.
		{[]float64{1, 2, 2, 4}, ""},
		// Listed with the faster one first whichever comes first.
		{[]float64{4, 3, 2, 1}, "a < b, a < c, a < d, b < c, b < d, c < d"},
	} {
		if got := strings.Join(Misordered(names, meas, nil, tc.pred, nil), ", "); got != tc.want {
			t.Errorf("pred %v: %q, want %q", tc.pred, got, tc.want)
		}
	}
	// Measured in the other order, the pair is named the other way round.
	if got := Misordered([]string{"x", "y"}, []float64{2, 1}, nil, []float64{1, 2}, nil); len(got) != 1 || got[0] != "y < x" {
		t.Errorf("got %q, want y < x", got)
	}
}

// TestMisorderedNoise: with the runs' ranges, a pair counts only when
// its measured times are further apart than either's range. Worked by
// hand: x took 12.54 s, y 13.65 s (8.85 % more); both predicted the
// other way round.
func TestMisorderedNoise(t *testing.T) {
	names, meas, pred := []string{"x", "y"}, []float64{12.54, 13.65}, []float64{13.27, 13.26}
	for _, tc := range []struct {
		noise []float64
		want  int
	}{
		{nil, 1},                     // no noise known: counted
		{[]float64{0, 0}, 1},         // single runs: counted
		{[]float64{0.03, 0.05}, 1},   // 8.85 % apart, ranges 3 and 5 %: counted
		{[]float64{0.09, 0.01}, 0},   // the faster one's runs ranged 9 %: within it
		{[]float64{0.01, 0.0886}, 0}, // 1.11 / 12.54 = 0.08852
		{[]float64{0.01, 0.088}, 1},
	} {
		if got := Misordered(names, meas, tc.noise, pred, nil); len(got) != tc.want {
			t.Errorf("noise %v: %q, want %d pair(s)", tc.noise, got, tc.want)
		}
	}
}

// TestMisorderedTied: a pair the model cannot tell apart orders nothing,
// whatever the measurement. Measured x < y by 9 %, predicted the other
// way round; tied for (0, 1) drops the pair, tied for no pair keeps it.
func TestMisorderedTied(t *testing.T) {
	names, meas, pred := []string{"x", "y"}, []float64{12.54, 13.65}, []float64{13.27, 13.26}
	for _, tc := range []struct {
		tied func(i, j int) bool
		want int
	}{
		{nil, 1},
		{func(i, j int) bool { return false }, 1},
		{func(i, j int) bool { return i == 0 && j == 1 }, 0},
	} {
		if got := Misordered(names, meas, nil, pred, tc.tied); len(got) != tc.want {
			t.Errorf("%q, want %d pair(s)", got, tc.want)
		}
	}
}

// TestSummarizeResolved: the resolved list keeps a misordered pair
// only when the predictions' gap beats what the spreads move it. Worked
// by hand: two sorts measured 12.66 and 13.04 s (2.9 % apart, ranges
// 1 %), predicted 13.61 and 13.52 s, gap 0.09 s. One shared parameter
// moves the first to 13.81 and the second to 13.62 (gap 0.19: moved by
// 0.10 > 0.09): tied, dropped. Moving both by the same 0.2 s leaves the
// gap where it is: not tied, kept.
func TestSummarizeResolved(t *testing.T) {
	run := func(k string, meas, pred, up float64) Run {
		return Run{Kernel: k, Measured: meas, Range: 0.01, Predicted: pred, Hier: pred,
			HierShifts: []hier.Shift{{Param: "distribution.scatter", Spread: 0.02, Down: pred, Up: up}}}
	}
	for _, tc := range []struct {
		name    string
		upA     float64
		upB     float64
		resolve int
	}{
		{"gap moved by more than itself", 13.81, 13.62, 0},
		{"both moved alike", 13.81, 13.72, 1},
	} {
		runs := []Run{run("radix-count", 12.66, 13.61, tc.upA), run("bucket-count", 13.04, 13.52, tc.upB)}
		s := Summarize("beyond", runs)
		if len(s.MisorderedHierBeyondNoise) != 1 {
			t.Fatalf("%s: beyond noise %q, want the one pair", tc.name, s.MisorderedHierBeyondNoise)
		}
		if len(s.MisorderedHierResolved) != tc.resolve {
			t.Errorf("%s: resolved %q, want %d pair(s)", tc.name, s.MisorderedHierResolved, tc.resolve)
		}
	}
}

// TestPermWinners: the faster permutation product each way, by hand. The
// two-pass product ran faster (0.8 against 1.0 s); the paper's model has
// it slower (1.2 against 0.9), the hierarchy model faster (0.7 against
// 1.1). With either product missing, or a tie, the traditional one is
// named.
func TestPermWinners(t *testing.T) {
	runs := []Run{
		{Kernel: "perm", Measured: 1.0, Predicted: 0.9, Hier: 1.1},
		{Kernel: "heapsort", Measured: 0.1, Predicted: 0.1, Hier: 0.1},
		{Kernel: "perm-twopass", Measured: 0.8, Predicted: 1.2, Hier: 0.7},
	}
	if m, p, h := PermWinners(runs); m != "perm-twopass" || p != "perm" || h != "perm-twopass" {
		t.Errorf("measured %s, MBRAM %s, hierarchy %s; want perm-twopass, perm, perm-twopass", m, p, h)
	}
	tie := []Run{{Kernel: "perm", Measured: 1, Predicted: 1, Hier: 1}, {Kernel: "perm-twopass", Measured: 1, Predicted: 1, Hier: 1}}
	if m, p, h := PermWinners(tie); m != "perm" || p != "perm" || h != "perm" {
		t.Errorf("a tie names %s, %s, %s; want perm", m, p, h)
	}
}

// TestPermTies: the two products as a tie of the measurement and of the
// model, by hand. Measured 1.00 and 1.10 s: 10 % apart, within a round
// range of 12 % on either and not within 5 %. Predicted 1.00 and 1.05 s by
// the hierarchy model: one parameter that moves the first to 1.08 and
// the second not at all moves the gap by 0.08 > 0.05 (tied); moving both
// by 0.08 leaves the gap (not tied). A product missing is no tie.
func TestPermTies(t *testing.T) {
	shift := func(v, up float64) []hier.Shift {
		return []hier.Shift{{Param: "levels[2].beta2", Spread: 0.05, Down: v, Up: up}}
	}
	for _, tc := range []struct {
		name            string
		rangeA, rangeB  float64
		upA, upB        float64
		noise, hierTied bool
	}{
		{"apart beyond the rounds, gap beyond the spreads", 0.05, 0.05, 1.08, 1.13, false, false},
		{"within the rounds of the two-pass product", 0.05, 0.12, 1.08, 1.13, true, false},
		{"gap within the spreads", 0.05, 0.05, 1.08, 1.05, false, true},
		{"both", 0.12, 0.01, 1.08, 1.05, true, true},
	} {
		runs := []Run{
			{Kernel: "perm", Measured: 1.00, Range: tc.rangeA, Hier: 1.00, HierShifts: shift(1.00, tc.upA)},
			{Kernel: "heapsort", Measured: 3, Hier: 3},
			{Kernel: "perm-twopass", Measured: 1.10, Range: tc.rangeB, Hier: 1.05, HierShifts: shift(1.05, tc.upB)},
		}
		if noise, tied := PermTies(runs); noise != tc.noise || tied != tc.hierTied {
			t.Errorf("%s: within noise %v, tied %v; want %v, %v", tc.name, noise, tied, tc.noise, tc.hierTied)
		}
		if s := Summarize("beyond", runs); s.PermWithinNoise != tc.noise || s.PermHierTied != tc.hierTied {
			t.Errorf("%s: Summarize says %v, %v", tc.name, s.PermWithinNoise, s.PermHierTied)
		}
	}
	if noise, tied := PermTies([]Run{{Kernel: "perm", Measured: 1, Range: 1, Hier: 1}}); noise || tied {
		t.Errorf("one product: within noise %v, tied %v; want neither", noise, tied)
	}
}

// TestSummarizeCounts: the band and the pairs of a class, by hand. Three
// sorts (three pairs) and the matrix product; the hierarchy ratios are
// 1.0, 1.083, 1.286 (out of [0.8, 1.25]) and 1.0: 3 of 4 in the band. The
// measurement orders quicksort < mergesort < heapsort; the paper's model
// swaps heapsort and mergesort (ρ = 0.5), the hierarchy model agrees
// (ρ = 1).
func TestSummarizeCounts(t *testing.T) {
	runs := []Run{
		{Kernel: "quicksort", Measured: 1.0, Predicted: 1.0, Hier: 1.0},
		{Kernel: "mergesort", Measured: 1.3, Predicted: 2.0, Hier: 1.2},
		{Kernel: "heapsort", Measured: 1.8, Predicted: 1.5, Hier: 1.4},
		{Kernel: "matmul", Measured: 5, Predicted: 0.001, Hier: 5},
	}
	s := Summarize("llc", runs)
	if s.Rows != 4 || s.InBand != 3 || s.SortPairs != 3 {
		t.Errorf("rows %d, in band %d, pairs %d; want 4, 3, 3", s.Rows, s.InBand, s.SortPairs)
	}
	if s.SpearmanSorts != 0.5 || s.SpearmanSortsHier != 1 {
		t.Errorf("ρ MBRAM %g, hierarchy %g; want 0.5 and 1", s.SpearmanSorts, s.SpearmanSortsHier)
	}
	if got := strings.Join(s.MisorderedPairs, ", "); got != "mergesort < heapsort" || len(s.MisorderedHier) != 0 {
		t.Errorf("misordered MBRAM %q, hierarchy %q", got, s.MisorderedHier)
	}
}
