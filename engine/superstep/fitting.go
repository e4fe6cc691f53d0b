package superstep

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"memwall/engine/fit"
)

// Sample is one measured superstep: its suite, processor count, counts and
// communication time in µs (the paper's unit for the cost functions).
type Sample struct {
	Suite  int
	P      int
	Counts Counts
	Micros float64
}

// Samples returns synthetic measurements of a suite's experiments timed by
// a cost function: the time of each is f(coef) at its features. The Good
// family needs two coefficient sets, by region; pass the same one twice
// otherwise. It is how the fit is checked against known coefficients.
func Samples(exps []Experiment, p int, f Function, r0, r1 Coefficients, cacheWords float64) ([]Sample, error) {
	var out []Sample
	for _, e := range exps {
		c, err := e.Superstep.Counts()
		if err != nil {
			return nil, err
		}
		x := c.Features(cacheWords)
		coef := r0
		if RegionOf(x.H, cacheWords) == R1 {
			coef = r1
		}
		t, _ := f.Eval(coef, x)
		out = append(out, Sample{Suite: e.Suite, P: p, Counts: c, Micros: t})
	}
	return out, nil
}

// FitSpec says which functions to fit on which suite and judge on which.
type FitSpec struct {
	Family Family
	// Functions to fit; empty means all four of the family (H, HrHw, HM and
	// HrHwM for Bad; H, HrHw, HM and HrHwM-c for Good), as Tables 5–8.
	Functions []Function
	// FitSuite is the suite the coefficients are fitted on (the paper: 1 for
	// Good, 2 for Bad); ValidateSuites the suites they are judged on.
	FitSuite       int
	ValidateSuites []int
	// CacheWords is C: the R0/R1 boundary of the Good family and the split
	// of h_r and h_w.
	CacheWords float64
	// Weighting defaults to absolute least squares, which the paper uses.
	Weighting fit.Weighting
}

// SuiteError is a function's error on one validation suite: the average
// and maximum of |predicted − measured|/measured over its supersteps, as in
// Tables 5–8.
type SuiteError struct {
	Suite     int
	N         int
	Mean, Max float64
}

// Fitted is one function fitted for one processor count and region.
type Fitted struct {
	Function Function
	P        int
	Region   Region
	Coef     Coefficients
	// FitRows is the number of supersteps the coefficients were fitted on.
	FitRows int
	// Fixed names coefficients set to 0 because their feature is 0 on
	// every fitting row (g_hrm and g_hwm in R0, where h <= C), as Tables 1
	// and 2 print them.
	Fixed      []string
	Validation []SuiteError
	Warnings   []string
	// Err says why this cell could not be fitted (too few rows, dependent
	// terms); the other fields are then empty.
	Err error
}

// Frame returns samples as columns for engine/fit: suite, p, t (µs) and the
// features of Columns.
func Frame(samples []Sample, cacheWords float64) fit.Frame {
	names := append([]string{"suite", "p", "t"}, Columns...)
	cols := make([][]float64, len(names))
	for _, s := range samples {
		x := s.Counts.Features(cacheWords)
		row := []float64{float64(s.Suite), float64(s.P), s.Micros}
		for _, c := range Columns {
			v, _ := x.Value(c)
			row = append(row, v)
		}
		for k, v := range row {
			cols[k] = append(cols[k], v)
		}
	}
	return fit.Frame{Names: names, Cols: cols}
}

// FitSuites fits each function of spec for every processor count in
// samples (and, for the Good family, each region) on the fitting suite and
// reports its errors on the validation suites, as the paper's Tables 1–8.
// Cells that cannot be fitted carry their reason in Err.
func FitSuites(samples []Sample, spec FitSpec) ([]Fitted, error) {
	if len(samples) == 0 {
		return nil, errors.New("no measured supersteps to fit")
	}
	if spec.FitSuite < 1 {
		return nil, fmt.Errorf("fit suite %d: give the suite number the coefficients are fitted on", spec.FitSuite)
	}
	if spec.CacheWords < 0 || math.IsNaN(spec.CacheWords) {
		return nil, fmt.Errorf("cache size C = %g words: must be >= 0", spec.CacheWords)
	}
	for i, s := range samples {
		if err := s.Counts.Validate(); err != nil {
			return nil, fmt.Errorf("superstep %d: %v", i+1, err)
		}
		if math.IsNaN(s.Micros) || math.IsInf(s.Micros, 0) || s.Micros <= 0 {
			return nil, fmt.Errorf("superstep %d: time %g µs; a positive finite time is needed", i+1, s.Micros)
		}
	}
	funcs := spec.Functions
	if len(funcs) == 0 {
		funcs = []Function{H, HrHw, HM, HrHwM}
		if spec.Family == Good {
			funcs = []Function{H, HrHw, HM, HrHwMc}
		}
	}
	wt := spec.Weighting
	if wt == fit.Auto {
		wt = fit.Absolute
	}
	var ps []int
	for _, s := range samples {
		if !slices.Contains(ps, s.P) {
			ps = append(ps, s.P)
		}
	}
	slices.Sort(ps)
	regions := []Region{AllRegions}
	if spec.Family == Good {
		regions = []Region{R0, R1}
	}
	var out []Fitted
	for _, p := range ps {
		for _, f := range funcs {
			for _, r := range regions {
				var rows []Sample
				for _, s := range samples {
					if s.P != p {
						continue
					}
					if r != AllRegions && RegionOf(max(s.Counts.Hr, s.Counts.Hw), spec.CacheWords) != r {
						continue
					}
					rows = append(rows, s)
				}
				out = append(out, fitCell(rows, f, p, r, spec, wt))
			}
		}
	}
	return out, nil
}

func fitCell(rows []Sample, f Function, p int, r Region, spec FitSpec, wt fit.Weighting) Fitted {
	cell := Fitted{Function: f, P: p, Region: r}
	frame := Frame(rows, spec.CacheWords)
	suite, _ := frame.Column("suite")
	var train []int
	for i, s := range suite {
		if int(s) == spec.FitSuite {
			train = append(train, i)
		}
	}
	if len(train) == 0 {
		cell.Err = fmt.Errorf("no supersteps of Suite %d for p = %d (%v)", spec.FitSuite, p, r)
		return cell
	}
	// A feature that is 0 on every fitting row has no coefficient to fit.
	var terms []string
	for _, col := range append([]string{"1"}, f.Columns()...) {
		if col != "1" {
			vals, _ := frame.Column(col)
			zero := true
			for _, i := range train {
				zero = zero && vals[i] == 0
			}
			if zero {
				cell.Fixed = append(cell.Fixed, CoefficientName(col))
				continue
			}
		}
		terms = append(terms, col)
	}
	parsed, err := fit.ParseTerms(strings.Join(terms, ", "))
	if err != nil {
		cell.Err = err
		return cell
	}
	cond, err := fit.ParseCond(fmt.Sprintf("suite == %d", spec.FitSuite))
	if err != nil {
		cell.Err = err
		return cell
	}
	res, err := fit.Fit(frame, fit.Spec{Y: "t", Terms: parsed, Train: cond, Weighting: wt})
	if err != nil {
		cell.Err = fmt.Errorf("%s for p = %d (%v): %v", f, p, r, err)
		return cell
	}
	for k, col := range terms {
		_ = cell.Coef.Set(col, res.Model.Coef[k])
	}
	cell.FitRows = res.Train.N
	cell.Warnings = res.Warnings
	for _, v := range spec.ValidateSuites {
		e := SuiteError{Suite: v}
		sum := 0.0
		for _, pr := range res.Predictions {
			if int(suite[pr.Row]) != v || pr.Y == 0 {
				continue
			}
			e.N++
			sum += pr.RelError
			e.Max = max(e.Max, pr.RelError)
		}
		if e.N > 0 {
			e.Mean = sum / float64(e.N)
		}
		cell.Validation = append(cell.Validation, e)
	}
	return cell
}

// SetFromFits builds an interval's coefficients for processor count p from
// fitted cells: HrHwM-c of the Good family (R0 and R1) and HrHwM of the
// Bad family.
func SetFromFits(good, bad []Fitted, p int, cacheWords float64, name string) (Set, error) {
	find := func(cells []Fitted, f Function, r Region) (Coefficients, error) {
		for _, c := range cells {
			if c.Function == f && c.P == p && c.Region == r {
				if c.Err != nil {
					return Coefficients{}, c.Err
				}
				return c.Coef, nil
			}
		}
		return Coefficients{}, fmt.Errorf("no %s fit for p = %d (%v)", f, p, r)
	}
	r0, err := find(good, HrHwMc, R0)
	if err != nil {
		return Set{}, err
	}
	r1, err := find(good, HrHwMc, R1)
	if err != nil {
		return Set{}, err
	}
	b, err := find(bad, HrHwM, AllRegions)
	if err != nil {
		return Set{}, err
	}
	s := Set{Name: name, Source: "fitted: HrHwM-c (Good) and HrHwM (Bad)", P: p, CacheWords: cacheWords, GoodR0: r0, GoodR1: &r1, Bad: b}
	return s, s.Validate()
}
