package fit

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Validation says how a candidate term set is scored on the training rows.
// The test rows are never looked at while choosing.
type Validation struct {
	// Extrapolate names columns along which the model will be used beyond
	// the training rows (Chittor's thesis predicts larger N and P than it fits).
	// For each such column and each of its Depth largest training values v,
	// one fold fits the training rows with column < v and predicts those
	// with column == v. Empty means k-fold cross-validation.
	Extrapolate []string
	Depth       int // default 2
	// Folds is k for k-fold cross-validation (default 10).
	Folds int
}

// Criterion is the held-out error a search minimises.
type Criterion int

const (
	MeanRel Criterion = iota
	MedianRel
	MaxRel
)

// SearchSpec describes a term search.
type SearchSpec struct {
	Y string
	// Vocabulary holds the candidate terms.
	Vocabulary []Term
	// Always holds terms every candidate contains (e.g. the constant 1).
	Always []Term
	// MaxTerms bounds how many vocabulary terms a candidate takes
	// (default 4).
	MaxTerms int
	Train    Cond
	// Weighting is Absolute or Relative; Auto tries both per candidate.
	Weighting  Weighting
	Validation Validation
	Criterion  Criterion
	// MaxCandidates bounds the subsets scored exhaustively (default
	// 20000); beyond it the search is greedy (forward selection, then
	// single-term swaps until no swap improves).
	MaxCandidates int
	// Progress, if set, is called after each candidate is scored with the
	// number scored so far and the number the search will score (for a
	// greedy search, an estimate that done may pass). A non-nil error
	// stops the search, which returns that error; a caller uses it to
	// cancel, or to let a user interface have a turn.
	Progress func(done, total int) error
}

// Candidate is a scored term set.
type Candidate struct {
	Terms     []Term
	Weighting Weighting
	Score     float64 // the criterion's value
	MeanRel   float64
	MedianRel float64
	MaxRel    float64
}

// SearchResult is the outcome of Search.
type SearchResult struct {
	// Candidates holds the best term sets, best first (at most 20).
	Candidates []Candidate
	// Best is the best candidate fitted on all training rows and judged on
	// the test rows.
	Best       *Result
	Evaluated  int
	Exhaustive bool
	// Method describes the validation, for the page.
	Method string
}

// Search chooses terms from a vocabulary by validation on the training
// rows, as Extra-P searches its performance-model normal form: every subset
// of up to MaxTerms vocabulary terms (or a greedy path through them when
// there are too many) is fitted on each fold and scored by its held-out
// relative error.
func Search(data Columns, spec SearchSpec) (*SearchResult, error) {
	if len(spec.Vocabulary) == 0 {
		return nil, errors.New("the vocabulary is empty")
	}
	y, err := NumericColumn(data, spec.Y)
	if err != nil {
		return nil, fmt.Errorf("the column to fit: %v", err)
	}
	maxT := spec.MaxTerms
	if maxT <= 0 {
		maxT = 4
	}
	if maxT > len(spec.Vocabulary) {
		maxT = len(spec.Vocabulary)
	}
	train, _, err := Split(data, spec.Train)
	if err != nil {
		return nil, err
	}
	all := append(append([]Term(nil), spec.Always...), spec.Vocabulary...)
	n := data.Len()
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	A, err := design(data, all, rows)
	if err != nil {
		return nil, err
	}
	fs, method, err := makeFolds(data, train, spec.Validation)
	if err != nil {
		return nil, err
	}
	weights := []Weighting{spec.Weighting}
	if spec.Weighting == Auto {
		weights = []Weighting{Absolute, Relative}
	}
	if _, zero := zeroY(y, train); zero {
		for _, w := range weights {
			if w == Relative {
				return nil, errors.New("a training row has y = 0, so relative weighting is not defined")
			}
		}
	}
	na := len(spec.Always)
	labels := TermStrings(all)
	res := &SearchResult{Method: method}
	limit := spec.MaxCandidates
	if limit <= 0 {
		limit = 20000
	}
	total := 0.0
	for k := 1; k <= maxT; k++ {
		total += binom(len(spec.Vocabulary), k)
	}
	exhaustive := total <= float64(limit)
	planned := int(total) * len(weights)
	if !exhaustive {
		// forward selection, then one round of swaps
		v := len(spec.Vocabulary)
		planned = 0
		for k := 0; k < maxT; k++ {
			planned += v - k
		}
		planned = (planned + maxT*(v-maxT)) * len(weights)
	}
	var stop error
	var cands []Candidate
	score := func(sub []int) {
		if stop != nil {
			return
		}
		idx := make([]int, 0, na+len(sub))
		for i := 0; i < na; i++ {
			idx = append(idx, i)
		}
		for _, s := range sub {
			idx = append(idx, na+s)
		}
		cols := make([][]float64, len(idx))
		lab := make([]string, len(idx))
		for j, i := range idx {
			cols[j], lab[j] = A[i], labels[i]
		}
		for _, w := range weights {
			res.Evaluated++
			rel, ok := crossValidateStrict(cols, y, fs, w, lab)
			if !ok {
				continue
			}
			mean, med, max := relSummary(rel)
			c := Candidate{Weighting: w, MeanRel: mean, MedianRel: med, MaxRel: max}
			c.Score = [...]float64{mean, med, max}[spec.Criterion]
			for _, i := range idx {
				c.Terms = append(c.Terms, all[i])
			}
			cands = append(cands, c)
		}
		if spec.Progress != nil {
			stop = spec.Progress(res.Evaluated, planned)
		}
	}
	if exhaustive {
		res.Exhaustive = true
		sub := make([]int, 0, maxT)
		var rec func(start int)
		rec = func(start int) {
			if stop != nil {
				return
			}
			if len(sub) > 0 {
				score(sub)
			}
			if len(sub) == maxT {
				return
			}
			for i := start; i < len(spec.Vocabulary); i++ {
				sub = append(sub, i)
				rec(i + 1)
				sub = sub[:len(sub)-1]
			}
		}
		rec(0)
	} else {
		greedy(len(spec.Vocabulary), maxT, func(sub []int) float64 {
			before := len(cands)
			score(sub)
			best := math.Inf(1)
			for _, c := range cands[before:] {
				best = math.Min(best, c.Score)
			}
			return best
		})
	}
	if stop != nil {
		return nil, stop
	}
	if len(cands) == 0 {
		return nil, errors.New("no term set could be validated: every candidate is rank deficient on some fold, or the folds are too small")
	}
	// Scores equal to a billionth (rounding noise: on exact data every
	// superset of the right terms scores about 1e-15) tie, and a tie goes
	// to the fewer terms.
	sort.SliceStable(cands, func(i, j int) bool {
		qi, qj := math.Round(cands[i].Score*1e9), math.Round(cands[j].Score*1e9)
		if qi != qj {
			return qi < qj
		}
		return len(cands[i].Terms) < len(cands[j].Terms)
	})
	cands = dedupe(cands)
	if len(cands) > 20 {
		cands = cands[:20]
	}
	res.Candidates = cands
	best, err := Fit(data, Spec{Y: spec.Y, Terms: cands[0].Terms, Train: spec.Train, Weighting: cands[0].Weighting})
	if err != nil {
		return nil, err
	}
	res.Best = best
	return res, nil
}

func dedupe(c []Candidate) []Candidate {
	seen := map[string]bool{}
	out := c[:0]
	for _, x := range c {
		k := x.Weighting.String() + ":" + strings.Join(TermStrings(x.Terms), ",")
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// greedy adds the term that lowers the score most until maxT terms, then
// swaps single terms while that helps.
func greedy(v, maxT int, eval func([]int) float64) {
	var cur []int
	in := make([]bool, v)
	curScore := math.Inf(1)
	for len(cur) < maxT {
		bestI, bestS := -1, math.Inf(1)
		for i := 0; i < v; i++ {
			if in[i] {
				continue
			}
			if s := eval(append(append([]int(nil), cur...), i)); s < bestS {
				bestI, bestS = i, s
			}
		}
		if bestI < 0 {
			break
		}
		cur = append(cur, bestI)
		in[bestI] = true
		curScore = math.Min(curScore, bestS)
	}
	for improved, rounds := true, 0; improved && rounds < 10; rounds++ {
		improved = false
		for pos := range cur {
			for i := 0; i < v; i++ {
				if in[i] {
					continue
				}
				try := append([]int(nil), cur...)
				try[pos] = i
				if s := eval(try); s < curScore {
					in[cur[pos]], in[i] = false, true
					cur, curScore, improved = try, s, true
				}
			}
		}
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// makeFolds builds the validation folds over the training rows.
func makeFolds(data Columns, train []int, v Validation) ([]Fold, string, error) {
	if len(v.Extrapolate) == 0 {
		k := v.Folds
		if k <= 0 {
			k = 10
		}
		if k > len(train) {
			k = len(train)
		}
		if k < 2 {
			return nil, "", errors.New("too few training rows to cross-validate")
		}
		return folds(train, k), fmt.Sprintf("%d-fold cross-validation on the %d training rows", k, len(train)), nil
	}
	depth := v.Depth
	if depth <= 0 {
		depth = 2
	}
	var fs []Fold
	var desc []string
	for _, name := range v.Extrapolate {
		col, ok := data.Column(name)
		if !ok {
			return nil, "", fmt.Errorf("validation column %q is not in the data set", name)
		}
		var vals []float64
		for _, r := range train {
			vals = append(vals, col[r])
		}
		sort.Float64s(vals)
		var levels []float64
		for i := len(vals) - 1; i >= 0 && len(levels) < depth; i-- {
			if len(levels) == 0 || vals[i] != levels[len(levels)-1] {
				levels = append(levels, vals[i])
			}
		}
		for _, lv := range levels {
			var f Fold
			for _, r := range train {
				switch {
				case col[r] < lv:
					f.Fit = append(f.Fit, r)
				case col[r] == lv:
					f.Hold = append(f.Hold, r)
				}
			}
			if len(f.Fit) > 0 && len(f.Hold) > 0 {
				fs = append(fs, f)
				desc = append(desc, name+"="+strconv.FormatFloat(lv, 'g', -1, 64))
			}
		}
	}
	if len(fs) == 0 {
		return nil, "", errors.New("no extrapolation fold has rows on both sides")
	}
	return fs, "extrapolation folds on the training rows: fit below and predict " + strings.Join(desc, ", "), nil
}

// crossValidateStrict is crossValidate that fails when any fold cannot be
// fitted, so candidates are compared on the same held-out rows.
func crossValidateStrict(A [][]float64, y []float64, fs []Fold, wt Weighting, labels []string) ([]float64, bool) {
	for _, f := range fs {
		if len(f.Fit) < len(A) {
			return nil, false
		}
	}
	return crossValidate(A, y, fs, wt, labels)
}
