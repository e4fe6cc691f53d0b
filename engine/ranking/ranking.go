package ranking

import (
	"math"
	"sort"

	"memwall/engine/hier"
	"memwall/engine/mbram"
)

// Run is one kernel's measured time in a size class beside both models'
// predictions.
type Run struct {
	Kernel   string
	Measured float64 // seconds, the fastest run
	// Range is how much slower the slowest round's fastest run was than
	// the fastest round's, a share of Measured: the noise the machine's
	// load alone puts on the run (0: one round, no noise known).
	Range     float64
	Predicted float64 // the MBRAM paper's closed form, seconds
	// Hier is the hierarchy model's prediction (0: none), and HierShifts
	// how the calibration's spreads move it (hier.Sensitivity; none for a
	// machine without spreads).
	Hier       float64
	HierShifts []hier.Shift
}

// Summary is the ranking of the sorts and the permutation winner of one
// size class, by both models, and how many of the class's hierarchy
// ratios lie in the model's band.
type Summary struct {
	Class             string  `json:"class"`
	SpearmanSorts     float64 `json:"spearman_sorts"`
	SpearmanSortsHier float64 `json:"spearman_sorts_hier"`
	PermWinner        string  `json:"perm_winner_measured"`
	PermPredicted     string  `json:"perm_winner_predicted"`
	PermPredictedHier string  `json:"perm_winner_predicted_hier"`
	InBand            int     `json:"hier_in_band"`
	Rows              int     `json:"rows"`
	// SortPairs is the pairs of sorts in the class; the two lists are
	// the pairs each model orders against the measurement, as "a < b":
	// a ran faster than b, the model predicts b faster.
	SortPairs       int      `json:"sort_pairs"`
	MisorderedPairs []string `json:"sort_pairs_misordered"`
	MisorderedHier  []string `json:"sort_pairs_misordered_hier"`
	// The same pairs without those measured closer than the range of
	// either's rounds (Run.Range).
	MisorderedBeyondNoise     []string `json:"sort_pairs_misordered_beyond_noise"`
	MisorderedHierBeyondNoise []string `json:"sort_pairs_misordered_hier_beyond_noise"`
	// MisorderedHierResolved is MisorderedHierBeyondNoise without the
	// pairs the hierarchy model puts closer than the calibration's
	// spreads move their gap (hier.GapUncertainty): pairs the model
	// orders, on this calibration, by no more than its own noise.
	MisorderedHierResolved []string `json:"sort_pairs_misordered_hier_resolved"`
	// PermWithinNoise says the two permutation products were measured
	// closer than the range of either's rounds, so that the measurement
	// names no faster one; PermHierTied that the hierarchy model puts
	// them closer than the calibration's spreads move their gap. Either
	// way PermWinner and PermPredictedHier still name the faster.
	PermWithinNoise bool `json:"perm_winner_within_noise,omitempty"`
	PermHierTied    bool `json:"perm_winner_hier_tied,omitempty"`
}

// Summarize ranks the sorts and names the faster permutation product of
// one size class's runs, by both models. Kernels other than the sorts and
// the permutation products count only towards InBand and Rows.
func Summarize(class string, runs []Run) Summary {
	sum := Summary{Class: class}
	var names []string
	var meas, noise, pred, hp []float64
	var sorts []Run
	for _, r := range runs {
		if k, _ := mbram.Lookup(r.Kernel); k.Family == mbram.Sort {
			names = append(names, r.Kernel)
			meas, noise, pred, hp = append(meas, r.Measured), append(noise, r.Range), append(pred, r.Predicted), append(hp, r.Hier)
			sorts = append(sorts, r)
		}
	}
	sum.InBand, sum.Rows = Band(runs)
	// A pair is a tie of the hierarchy model when the calibration's
	// spreads move the gap between its two predictions by as much as the
	// gap itself.
	tied := func(i, j int) bool {
		a, b := sorts[i], sorts[j]
		return math.Abs(a.Hier-b.Hier) <= hier.GapUncertainty(a.Hier, a.HierShifts, b.Hier, b.HierShifts)
	}
	sum.SpearmanSorts, sum.SpearmanSortsHier = round4(Spearman(meas, pred)), round4(Spearman(meas, hp))
	sum.SortPairs = len(names) * (len(names) - 1) / 2
	sum.MisorderedPairs, sum.MisorderedHier = Misordered(names, meas, nil, pred, nil), Misordered(names, meas, nil, hp, nil)
	sum.MisorderedBeyondNoise, sum.MisorderedHierBeyondNoise = Misordered(names, meas, noise, pred, nil), Misordered(names, meas, noise, hp, nil)
	sum.MisorderedHierResolved = Misordered(names, meas, noise, hp, tied)
	sum.PermWinner, sum.PermPredicted, sum.PermPredictedHier = PermWinners(runs)
	sum.PermWithinNoise, sum.PermHierTied = PermTies(runs)
	return sum
}

// PermTies says whether the two permutation products' measured times are
// closer than the range of either's rounds (Run.Range), as Misordered
// reads a pair of sorts, and whether the hierarchy model's predictions are
// closer than the calibration's spreads move their gap
// (hier.GapUncertainty). Both are false when either product is missing.
func PermTies(runs []Run) (withinNoise, hierTied bool) {
	t, tp, ok := permRuns(runs)
	if !ok {
		return false, false
	}
	if lo := math.Min(t.Measured, tp.Measured); lo > 0 {
		withinNoise = math.Abs(t.Measured-tp.Measured) <= lo*math.Max(t.Range, tp.Range)
	}
	if t.Hier > 0 && tp.Hier > 0 {
		hierTied = math.Abs(t.Hier-tp.Hier) <= hier.GapUncertainty(t.Hier, t.HierShifts, tp.Hier, tp.HierShifts)
	}
	return withinNoise, hierTied
}

// permRuns finds the traditional and the two-pass product among runs.
func permRuns(runs []Run) (t, tp Run, both bool) {
	var seen int
	for _, r := range runs {
		switch r.Kernel {
		case "perm":
			t, seen = r, seen|1
		case "perm-twopass":
			tp, seen = r, seen|2
		}
	}
	return t, tp, seen == 3
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// Band counts the runs the hierarchy model predicts (all) and those of
// them whose measured/predicted lies in its band (in).
func Band(runs []Run) (in, all int) {
	for _, r := range runs {
		if r.Hier > 0 && r.Measured > 0 {
			all++
			if hier.InBand(r.Measured / r.Hier) {
				in++
			}
		}
	}
	return in, all
}

// PermWinners names the faster permutation product ("perm" or
// "perm-twopass"), measured and predicted by the paper's model and by the
// hierarchy model. A tie, or a product missing from runs, names "perm".
func PermWinners(runs []Run) (measured, predicted, hierPredicted string) {
	t, tp, _ := permRuns(runs)
	measured, predicted, hierPredicted = "perm", "perm", "perm"
	if tp.Measured < t.Measured {
		measured = "perm-twopass"
	}
	if tp.Predicted < t.Predicted {
		predicted = "perm-twopass"
	}
	if tp.Hier < t.Hier {
		hierPredicted = "perm-twopass"
	}
	return measured, predicted, hierPredicted
}

// Ranks gives average ranks (1-based), ties sharing the mean of their ranks.
func Ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

// Misordered lists the pairs whose predicted order is the opposite of
// their measured one, each as "a < b" with a the one measured faster. A
// tie on either side orders nothing, and with noise (nil: none) neither
// does a pair whose measured times are closer than the noise of either:
// the slower one's fastest run must take longer than the faster one's by
// more than the range of either's rounds (noise[i], a share of the
// fastest; Run.Range). Runs taken in rounds move that much with the
// machine's load alone, so a closer pair's order is not a measurement of
// the kernels. Likewise, with tied (nil: none), a pair the model cannot
// tell apart orders nothing: tied(i, j) says the predictions' gap is
// within what the calibration's own spreads move it.
func Misordered(names []string, meas, noise, pred []float64, tied func(i, j int) bool) []string {
	var out []string
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if (meas[i]-meas[j])*(pred[i]-pred[j]) >= 0 {
				continue
			}
			if tied != nil && tied(i, j) {
				continue
			}
			if noise != nil {
				lo := math.Min(meas[i], meas[j])
				if math.Abs(meas[i]-meas[j]) <= lo*math.Max(noise[i], noise[j]) {
					continue
				}
			}
			a, b := names[i], names[j]
			if meas[j] < meas[i] {
				a, b = b, a
			}
			out = append(out, a+" < "+b)
		}
	}
	return out
}

// Spearman is the Pearson correlation of the ranks (ties averaged). It
// returns 0 when either side has no variation or fewer than two values.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return 0
	}
	rx, ry := Ranks(x), Ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}
