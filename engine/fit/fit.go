package fit

import (
	"errors"
	"fmt"
	"math"
)

// Weighting selects the least-squares objective.
type Weighting int

const (
	// Auto picks Absolute or Relative by cross-validation on the training
	// rows.
	Auto Weighting = iota
	// Absolute minimises sum (y − ŷ)², as the papers memwall follows do.
	Absolute
	// Relative minimises sum ((y − ŷ)/y)², i.e. rows weighted by 1/y², so
	// that a 1 ms point counts as much as a 1 s point.
	Relative
)

func (w Weighting) String() string {
	switch w {
	case Absolute:
		return "abs"
	case Relative:
		return "rel"
	}
	return "auto"
}

// ParseWeighting reads "abs", "rel" or "auto" (also "absolute", "relative",
// or "" for auto).
func ParseWeighting(s string) (Weighting, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "abs", "absolute":
		return Absolute, nil
	case "rel", "relative":
		return Relative, nil
	}
	return Auto, fmt.Errorf("weighting %q: use abs, rel or auto", s)
}

// Spec says what to fit.
type Spec struct {
	// Y names the measured column.
	Y string
	// Terms are the basis functions, at least one.
	Terms []Term
	// Train selects the training rows; the other rows are the test set.
	// The zero Cond puts every row in the training set.
	Train Cond
	// Weighting is Auto, Absolute or Relative.
	Weighting Weighting
}

// Stats summarises how well a model matches a set of rows.
type Stats struct {
	N int `json:"n"`
	// SE is the error standard deviation sqrt(SSE/(n−p)) (the lines-touched paper, eq. 10);
	// when n <= p it is sqrt(SSE/n).
	SE float64 `json:"s_e"`
	// D = SSE/SST and R2 = 1 − D; both are 0 and DDefined false when the
	// set has fewer than two rows or all its y are equal.
	D        float64 `json:"D"`
	R2       float64 `json:"r2"`
	DDefined bool    `json:"-"`
	// Relative errors |ŷ − y|/|y| over the rows with y ≠ 0 (RelN of them).
	MeanRel   float64 `json:"mean_rel_error"`
	MedianRel float64 `json:"median_rel_error"`
	MaxRel    float64 `json:"max_rel_error"`
	RelN      int     `json:"-"`
}

// Prediction is the model's value for one row of the data.
type Prediction struct {
	Row      int     // index into the data
	Train    bool    // in the training set
	Y        float64 // measured
	Pred     float64 // predicted
	Residual float64 // Y − Pred
	RelError float64 // |Residual|/|Y|, 0 when Y = 0
}

// CVScore is the cross-validated error of one weighting.
type CVScore struct {
	Weighting Weighting
	Folds     int
	MeanRel   float64
	MedianRel float64
	MaxRel    float64
}

// Result is everything a page shows about a fit.
type Result struct {
	Model     Model
	Weighting Weighting
	// WeightingReason says why this weighting was used.
	WeightingReason string
	// CV holds the cross-validation scores when the weighting was chosen
	// automatically.
	CV []CVScore
	// Cond is the condition number of the normalised training design matrix.
	Cond     float64
	Warnings []string
	// Near lists near-collinear relations among the terms.
	Near        []Collinearity
	Train, Test Stats
	// Predictions has one entry per row of the data, in data order.
	Predictions []Prediction
	TrainRows   []int
	TestRows    []int
}

// Fit fits spec.Terms to column spec.Y of data on the rows spec.Train
// selects, and evaluates the model on all rows.
func Fit(data Columns, spec Spec) (*Result, error) {
	if len(spec.Terms) == 0 {
		return nil, errors.New("no terms to fit")
	}
	for i, t := range spec.Terms {
		if !t.Valid() {
			return nil, fmt.Errorf("term %d is empty", i+1)
		}
	}
	y, err := NumericColumn(data, spec.Y)
	if err != nil {
		return nil, fmt.Errorf("the column to fit: %v", err)
	}
	n := data.Len()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	train, test, err := Split(data, spec.Train)
	if err != nil {
		return nil, err
	}
	for _, r := range all {
		if math.IsNaN(y[r]) || math.IsInf(y[r], 0) {
			return nil, &RowError{Row: r, Msg: fmt.Sprintf("%s is not a finite number", spec.Y)}
		}
	}
	labels := TermStrings(spec.Terms)
	p := len(spec.Terms)
	if len(train) < p {
		return nil, fmt.Errorf("%w: %d training points for %d terms (%s); widen the training condition or use fewer terms",
			ErrTooFewPoints, len(train), p, joinLabels(labels))
	}
	A, err := design(data, spec.Terms, all)
	if err != nil {
		return nil, err
	}
	res := &Result{TrainRows: train, TestRows: test}
	wt := spec.Weighting
	switch wt {
	case Absolute:
		res.WeightingReason = "absolute least squares, as chosen"
	case Relative:
		if r, ok := zeroY(y, train); ok {
			return nil, &RowError{Row: r, Msg: fmt.Sprintf("%s is 0, so relative weighting (1/y²) is not defined; use absolute weighting", spec.Y)}
		}
		res.WeightingReason = "relative least squares (rows weighted by 1/y²), as chosen"
	default:
		wt, res.WeightingReason, res.CV = chooseWeighting(A, y, train, labels)
	}
	res.Weighting = wt
	sol, err := solveRows(A, y, train, wt, labels)
	if err != nil {
		return nil, err
	}
	res.Model = Model{Terms: append([]Term(nil), spec.Terms...), Coef: sol.Coef}
	res.Cond = sol.Cond
	res.Near = sol.Near
	for _, c := range sol.Near {
		res.Warnings = append(res.Warnings, fmt.Sprintf("terms %s are nearly collinear on the training rows (condition number %.2g): %s; their coefficients are unstable",
			names(c.Terms), 1/c.Ratio, c))
	}
	inTrain := make([]bool, n)
	for _, r := range train {
		inTrain[r] = true
	}
	res.Predictions = make([]Prediction, n)
	for r := 0; r < n; r++ {
		pr := 0.0
		for k := range A {
			pr += sol.Coef[k] * A[k][r]
		}
		if math.IsNaN(pr) || math.IsInf(pr, 0) {
			return nil, &RowError{Row: r, Msg: "prediction is out of range"}
		}
		e := Prediction{Row: r, Train: inTrain[r], Y: y[r], Pred: pr, Residual: y[r] - pr}
		if y[r] != 0 {
			e.RelError = math.Abs(e.Residual / y[r])
		}
		res.Predictions[r] = e
	}
	res.Train = statsOf(res.Predictions, train, p)
	res.Test = statsOf(res.Predictions, test, p)
	return res, nil
}

func joinLabels(l []string) string {
	s := ""
	for i, x := range l {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// Split returns the rows where cond holds (training) and the others (test).
// The zero Cond selects every row for training.
func Split(data Columns, cond Cond) (train, test []int, err error) {
	n := data.Len()
	if !cond.Valid() {
		train = make([]int, n)
		for i := range train {
			train[i] = i
		}
		return train, nil, nil
	}
	cols := make([][]float64, len(cond.vars))
	for i, v := range cond.vars {
		c, ok := data.Column(v)
		if !ok {
			return nil, nil, fmt.Errorf("training condition %q reads column %q, which the data set does not have", cond.text, v)
		}
		cols[i] = c
	}
	x := make([]float64, len(cols))
	for r := 0; r < n; r++ {
		for i := range cols {
			x[i] = cols[i][r]
		}
		if cond.Eval(x) {
			train = append(train, r)
		} else {
			test = append(test, r)
		}
	}
	if len(train) == 0 {
		return nil, nil, fmt.Errorf("training condition %q selects no rows", cond.text)
	}
	return train, test, nil
}

func zeroY(y []float64, rows []int) (int, bool) {
	for _, r := range rows {
		if y[r] == 0 {
			return r, true
		}
	}
	return 0, false
}

// solveRows solves the least-squares problem on a subset of rows.
func solveRows(A [][]float64, y []float64, rows []int, wt Weighting, labels []string) (*Solution, error) {
	// Every row, in order (the usual case): LeastSquares copies what it
	// changes, so A and y are passed as they are, not copied once more.
	all := len(A) > 0 && len(rows) == len(y) && len(A[0]) == len(y)
	for j := 0; all && j < len(rows); j++ {
		all = rows[j] == j
	}
	if all {
		var w []float64
		if wt == Relative {
			w = make([]float64, len(y))
			for i, v := range y {
				w[i] = 1 / math.Abs(v)
			}
		}
		return LeastSquares(A, y, w, labels)
	}
	sub := make([][]float64, len(A))
	for k := range A {
		c := make([]float64, len(rows))
		for j, r := range rows {
			c[j] = A[k][r]
		}
		sub[k] = c
	}
	b := make([]float64, len(rows))
	var w []float64
	if wt == Relative {
		w = make([]float64, len(rows))
	}
	for j, r := range rows {
		b[j] = y[r]
		if w != nil {
			w[j] = 1 / math.Abs(y[r])
		}
	}
	return LeastSquares(sub, b, w, labels)
}

// chooseWeighting cross-validates both weightings on the training rows and
// returns the one with the lower mean relative error on held-out rows; ties
// and cases that cannot be cross-validated go to Absolute, the papers'
// choice.
func chooseWeighting(A [][]float64, y []float64, train []int, labels []string) (Weighting, string, []CVScore) {
	if r, ok := zeroY(y, train); ok {
		return Absolute, fmt.Sprintf("absolute least squares: row %d has y = 0, so relative weighting is not defined", r+1), nil
	}
	p := len(A)
	k := 10
	// On large data sets the choice is made on an evenly spaced sample of
	// 2000 training rows with 5 folds, so that choosing costs about as much
	// as the fit itself (the page's budget is 100 ms for 10 000 points).
	if len(train) > 2000 {
		k = 5
		sample := make([]int, 0, 2000)
		for i := 0; i < 2000; i++ {
			sample = append(sample, train[i*len(train)/2000])
		}
		train = sample
	}
	if k > len(train) {
		k = len(train)
	}
	// Each fold leaves out about n/k rows; the rest must still determine
	// the p coefficients.
	if k < 2 || len(train)-(len(train)+k-1)/k < p {
		return Absolute, fmt.Sprintf("absolute least squares (as in the papers): %d training rows are too few to cross-validate %d terms", len(train), p), nil
	}
	var scores []CVScore
	for _, wt := range []Weighting{Absolute, Relative} {
		rel, ok := crossValidate(A, y, folds(train, k), wt, labels)
		if !ok {
			return Absolute, "absolute least squares (as in the papers): some cross-validation folds cannot be fitted (the terms are dependent on them)", nil
		}
		mean, med, max := relSummary(rel)
		scores = append(scores, CVScore{Weighting: wt, Folds: k, MeanRel: mean, MedianRel: med, MaxRel: max})
	}
	a, r := scores[0], scores[1]
	if r.MeanRel < a.MeanRel {
		return Relative, fmt.Sprintf("relative least squares: in %d-fold cross-validation on the %d training rows its mean relative error is %.3g%% against %.3g%% for absolute",
			k, len(train), 100*r.MeanRel, 100*a.MeanRel), scores
	}
	return Absolute, fmt.Sprintf("absolute least squares: in %d-fold cross-validation on the %d training rows its mean relative error is %.3g%% against %.3g%% for relative",
		k, len(train), 100*a.MeanRel, 100*r.MeanRel), scores
}

// Fold is one cross-validation split: fit on Fit, judge on Hold.
type Fold struct{ Fit, Hold []int }

// folds splits rows into k interleaved folds (row j goes to fold j mod k),
// deterministic so that the same data always give the same choice.
func folds(rows []int, k int) []Fold {
	out := make([]Fold, k)
	for j, r := range rows {
		for f := range out {
			if j%k == f {
				out[f].Hold = append(out[f].Hold, r)
			} else {
				out[f].Fit = append(out[f].Fit, r)
			}
		}
	}
	return out
}

// crossValidate returns the held-out relative errors pooled over folds.
func crossValidate(A [][]float64, y []float64, fs []Fold, wt Weighting, labels []string) ([]float64, bool) {
	var rel []float64
	for _, f := range fs {
		if len(f.Hold) == 0 {
			continue
		}
		sol, err := solveRows(A, y, f.Fit, wt, labels)
		if err != nil {
			return nil, false
		}
		for _, r := range f.Hold {
			pr := 0.0
			for k := range A {
				pr += sol.Coef[k] * A[k][r]
			}
			if y[r] != 0 {
				rel = append(rel, math.Abs((y[r]-pr)/y[r]))
			}
		}
	}
	return rel, len(rel) > 0
}

func relSummary(rel []float64) (mean, median, max float64) {
	return relSummaryInPlace(append([]float64(nil), rel...))
}

// relSummaryInPlace is relSummary on a slice it may reorder.
func relSummaryInPlace(s []float64) (mean, median, max float64) {
	u := summarizeInPlace(s)
	return u.Mean, u.Median, u.Max
}

// statsOf computes the statistics of the rows of preds listed in rows.
func statsOf(preds []Prediction, rows []int, p int) Stats {
	st := Stats{N: len(rows)}
	if len(rows) == 0 {
		return st
	}
	sse, mean := 0.0, 0.0
	for _, r := range rows {
		sse += preds[r].Residual * preds[r].Residual
		mean += preds[r].Y
	}
	mean /= float64(len(rows))
	sst := 0.0
	rel := make([]float64, 0, len(rows))
	for _, r := range rows {
		d := preds[r].Y - mean
		sst += d * d
		if preds[r].Y != 0 {
			rel = append(rel, preds[r].RelError)
		}
	}
	dof := len(rows) - p
	if dof <= 0 {
		dof = len(rows)
	}
	st.SE = math.Sqrt(sse / float64(dof))
	if len(rows) > 1 && sst > 0 {
		st.D = sse / sst
		st.R2 = 1 - st.D
		st.DDefined = true
	}
	st.RelN = len(rel)
	st.MeanRel, st.MedianRel, st.MaxRel = relSummaryInPlace(rel)
	return st
}

// DoubtfulRel is the mean relative error above which a fit is flagged: a
// model off by more than half the measured value on average does not
// describe the data, however its coefficients read.
const DoubtfulRel = 0.5

// Doubts lists what makes a fit doubtful, in words: negative coefficients
// (a cost below zero) and a mean relative error above DoubtfulRel on the
// training or the test rows. Nothing when the fit looks sound.
func (r *Result) Doubts() []string {
	var ds []string
	var neg []string
	for k, c := range r.Model.Coef {
		if c < 0 && k < len(r.Model.Terms) {
			neg = append(neg, r.Model.Terms[k].String())
		}
	}
	if len(neg) > 0 {
		ds = append(ds, fmt.Sprintf("negative coefficient for %s: the time falls as the term grows; if the term is meant as a cost, it cannot be negative, and the terms may not suit these data", joinLabels(neg)))
	}
	for _, s := range []struct {
		name string
		st   Stats
	}{{"training", r.Train}, {"test", r.Test}} {
		if s.st.RelN > 0 && s.st.MeanRel > DoubtfulRel {
			ds = append(ds, fmt.Sprintf("mean error %.0f%% on the %s rows: the model does not describe these data", 100*s.st.MeanRel, s.name))
		}
	}
	return ds
}
