package superstep

import (
	"errors"
	"fmt"
	"math"
)

// Set is the coefficients of a prediction interval for one machine and
// processor count: the Good family's HrHwM-c (the superstep paper's best Good function,
// fitted separately on R0: h <= C and R1: h > C) and the Bad family's HrHwM
// (its best Bad function), in µs (section 5).
type Set struct {
	Name   string
	Source string
	// P is the processor count the coefficients were fitted for.
	P int
	// CacheWords is C, in words: the boundary between R0 and R1 and the
	// split of h_r and h_w into cache and memory parts.
	CacheWords float64
	// GoodR0 is HrHwM-c for supersteps with h <= C; GoodR1 for h > C. A nil
	// GoodR1 means one Good function for every h (the paper notes that one
	// fit over all supersteps is only slightly worse, section 4.3).
	GoodR0 Coefficients
	GoodR1 *Coefficients
	Bad    Coefficients
}

// Validate checks p, C and that every coefficient is finite.
func (s Set) Validate() error {
	if s.P < 1 || s.P > MaxProcessors {
		return fmt.Errorf("coefficients: p = %d; accepted 1 to %d", s.P, MaxProcessors)
	}
	if math.IsNaN(s.CacheWords) || s.CacheWords < 0 || s.CacheWords > MaxAccesses {
		return fmt.Errorf("coefficients: cache size C = %g words; accepted 0 to 2^50", s.CacheWords)
	}
	if err := s.GoodR0.Validate(HrHwMc); err != nil {
		return fmt.Errorf("coefficients: Good (R0): %v", err)
	}
	if s.GoodR1 != nil {
		if err := s.GoodR1.Validate(HrHwMc); err != nil {
			return fmt.Errorf("coefficients: Good (R1): %v", err)
		}
	}
	if err := s.Bad.Validate(HrHwM); err != nil {
		return fmt.Errorf("coefficients: Bad: %v", err)
	}
	for _, f := range []struct {
		name string
		c    *Coefficients
		fn   Function
	}{{"good", &s.GoodR0, HrHwMc}, {"good_r1", s.GoodR1, HrHwMc}, {"bad", &s.Bad, HrHwM}} {
		if f.c != nil && f.c.zero(f.fn) {
			return fmt.Errorf("coefficients: %s: every coefficient is 0, so every prediction would be 0 s; give fitted coefficients (memwall superstep-fit writes them)", f.name)
		}
	}
	return nil
}

// MaxSeconds is the longest measured time accepted (about 116 days).
const MaxSeconds = 1e7

// zero reports whether every coefficient of f is 0.
func (c Coefficients) zero(f Function) bool {
	for _, col := range append([]string{"1"}, functionColumns[f]...) {
		if c.Get(col) != 0 {
			return false
		}
	}
	return true
}

// Good returns the Good coefficients that apply to a superstep with
// h = max(h_r, h_w), and the region they were fitted on.
func (s Set) Good(h float64) (Coefficients, Region) {
	if s.GoodR1 == nil {
		return s.GoodR0, AllRegions
	}
	if r := RegionOf(h, s.CacheWords); r == R1 {
		return *s.GoodR1, R1
	}
	return s.GoodR0, R0
}

// Interval is the prediction interval of one superstep's communication
// time: t_g by the Good function (a lower bound: the best use of the memory
// hierarchy) and t_b by the Bad function (an upper bound: the worst),
// the superstep paper section 5.
type Interval struct {
	Features Features
	// Region is the Good function's region (R0: h <= C, R1: h > C).
	Region Region
	// Good and Bad are t_g and t_b in seconds.
	Good, Bad float64
	// GoodTerms and BadTerms are the terms of each prediction, in µs as the
	// paper writes its coefficients.
	GoodTerms, BadTerms []Term
	Warnings            []string
}

// Interval predicts [t_g, t_b] for a superstep with counts c.
func (s Set) Interval(c Counts) (Interval, error) {
	if err := s.Validate(); err != nil {
		return Interval{}, err
	}
	if err := c.Validate(); err != nil {
		return Interval{}, err
	}
	x := c.Features(s.CacheWords)
	good, region := s.Good(x.H)
	tg, gt := HrHwMc.Eval(good, x)
	tb, bt := HrHwM.Eval(s.Bad, x)
	iv := Interval{Features: x, Region: region, Good: tg * 1e-6, Bad: tb * 1e-6, GoodTerms: gt, BadTerms: bt}
	if !finite(iv.Good) || !finite(iv.Bad) {
		return Interval{}, errors.New("the prediction overflows; the counts or coefficients are too large")
	}
	// The constant L of a fit "plays a second order role and ... is very
	// sensitive to noise" (section 4.3); for tiny supersteps it can make a
	// prediction negative (Table 2, p = 2, R0: L = −30 µs). A time is never
	// negative: the Good function is a lower bound, and 0 is as true a
	// lower bound, so it is reported as 0; a negative Bad function, an
	// upper bound, leaves no interval, and the superstep is refused.
	if tb < 0 {
		return Interval{}, fmt.Errorf("the Bad function predicts %.4g µs, a negative time: its constant L = %g µs outweighs the access terms; give Bad coefficients whose predictions are 0 or more for this superstep", tb, s.Bad.L)
	}
	if tg < 0 {
		iv.Warnings = append(iv.Warnings, fmt.Sprintf("the Good function falls below zero here (%.3g µs below): for a superstep this small its fitted constant L (%.3g µs below zero) outweighs the access terms (a fitted constant is sensitive to noise); the lower bound t_g is taken as 0", -tg, -good.L))
		iv.Good = 0
	}
	if tb < tg {
		iv.Warnings = append(iv.Warnings, "the Bad prediction is below the Good one: the interval is empty for these coefficients")
	}
	return iv, nil
}

// Loc returns the degree of locality of a superstep or program with
// measured time tm and prediction interval [tg, tb] (the superstep paper, section
// 5.2): Loc = 1 − (tm − tg)/(tb − tg), 1 when tm = tg and 0 when tm = tb.
// It is undefined when the interval is empty or a point (tb <= tg).
func Loc(tm, tg, tb float64) (float64, error) {
	if err := checkTimes(tm, tg, tb); err != nil {
		return 0, err
	}
	if tb <= tg {
		return 0, fmt.Errorf("Loc is undefined: the Bad prediction t_b = %.4g s is not above the Good prediction t_g = %.4g s", tb, tg)
	}
	loc := 1 - (tm-tg)/(tb-tg)
	if math.IsInf(loc, 0) || math.IsNaN(loc) {
		return 0, fmt.Errorf("Loc is undefined: t_b − t_g = %.4g s is too small against t_m − t_g", tb-tg)
	}
	return loc, nil
}

// MG returns M/G = tm/tg, the measured time over the Good prediction
// (the superstep paper, section 5.2). It is undefined when tg <= 0.
func MG(tm, tg float64) (float64, error) {
	if err := checkTimes(tm, tg, 0); err != nil {
		return 0, err
	}
	if tg <= 0 {
		return 0, fmt.Errorf("M/G is undefined: the Good prediction t_g = %.4g s is not positive", tg)
	}
	r := tm / tg
	if math.IsInf(r, 0) {
		return 0, fmt.Errorf("M/G is undefined: t_g = %.4g s is too small against t_m = %.4g s", tg, tm)
	}
	return r, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func checkTimes(tm, tg, tb float64) error {
	if math.IsNaN(tm) || math.IsInf(tm, 0) || tm < 0 || tm > MaxSeconds {
		return fmt.Errorf("measured time t_m = %g s; accepted 0 to %g s", tm, MaxSeconds)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"t_g", tg}, {"t_b", tb}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Errorf("prediction %s = %g s is not a finite time", v.name, v.x)
		}
	}
	return nil
}

// Locality is Loc and M/G for one measured time, each with the reason it is
// undefined when it is.
type Locality struct {
	Measured float64 // t_m, seconds
	Loc      float64
	LocErr   error
	MG       float64
	MGErr    error
}

// Locate computes Loc and M/G of measured time tm (seconds) against an
// interval.
func (iv Interval) Locate(tm float64) Locality {
	l := Locality{Measured: tm}
	l.Loc, l.LocErr = Loc(tm, iv.Good, iv.Bad)
	l.MG, l.MGErr = MG(tm, iv.Good)
	return l
}
