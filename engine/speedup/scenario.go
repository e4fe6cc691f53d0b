package speedup

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"memwall/engine/dataset"
	"memwall/engine/field"
	"memwall/engine/fit"
	"memwall/engine/link"
	"memwall/engine/units"
)

// Built-in data sets of Chittor's thesis (Chittor 1994). Table 6 holds
// T(N, P) and is what eq. 14 was fitted to; Tables 3 and 4 hold the Seq(P)
// and Par(N) of the simple theoretic model (section 5.2.1); Table 5 holds
// Multi's own speedup estimate.
const (
	Table3 = "chittor-table3"
	Table4 = "chittor-table4"
	Table5 = "chittor-table5"
	Table6 = "chittor-table6"
	// DefaultData is the data set a fresh Speedup page fits.
	DefaultData = Table6
)

// Eq14Terms are the terms of the thesis's eq. 9 plus the constant eq. 14
// fits: process creation and barriers, the parallel merge core, local
// sorting and its repetition.
const Eq14Terms = "1, N/P*log2(P)^2, P*log2(P), P, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2"

// DefaultWork is W(N) for Sun and Ni's memory-bounded speedup: the work of
// a bitonic sort.
const DefaultWork = "N*log2(N)^2"

// MaxTerms bounds a term list.
const MaxTerms = 30

// MaxChartP bounds "P to": a million processors, far beyond any of the
// data sets shipped, and a chart of at most 21 doublings.
const MaxChartP = 1 << 20

// DataDefaults are what the Speedup page starts with for a data set.
type DataDefaults struct {
	Y, Terms, Region string
	N                string // problem size for the speedup chart
	// Speedups marks a data set whose measured column is itself a
	// speedup, so no speedup curve is derived from its fit.
	Speedups bool
}

// DefaultsFor is the starting point for a data set: the thesis's own
// choices where it made them (eq. 14's terms and region for Table 6), a
// plain form of the single-variable tables, and for any other table its
// time column with eq. 14's terms when it has N and P, else a constant.
func DefaultsFor(id string, t *dataset.Table) DataDefaults {
	switch id {
	case Table6:
		return DataDefaults{Y: "T", Terms: Eq14Terms, Region: "N <= 2^9 && P <= 2^4", N: "2^13"}
	case Table3:
		// Seq(P): process creation and barriers, P and P·log P (section 4.3).
		return DataDefaults{Y: "seq", Terms: "1, P, P*log2(P)", Region: "P <= 2^4"}
	case Table4:
		// Par(N): the sequential bitonic sort, N·log²N and lower orders.
		return DataDefaults{Y: "par", Terms: "1, N, N*log2(N), N*log2(N)^2", Region: "N <= 2^9"}
	case Table5:
		return DataDefaults{Y: "S", Terms: "1, log2(P), log2(P)^2", Region: "N <= 2^9 && P <= 2^4", Speedups: true}
	}
	d := DataDefaults{Y: GuessColumn(t, []string{"T", "t", "time", "seconds", "runtime"}, true), Terms: "1"}
	if HasColumn(t, "N") && HasColumn(t, "P") {
		d.Terms = Eq14Terms
	}
	return d
}

// Form is the speedup model's inputs: the data set and its measured column
// (data, y), the terms and characterisation region of the fit with its
// weighting (terms, region, w), the speedup chart's problem size and
// processor range (n, pfrom, pto), a published model whose fixed values
// are used (model) and W(N) for Sun and Ni (work). The Speedup page, its
// link, its scenario file and memwall fit --link|--scenario read them
// through it. Imported data is not carried: data names a built-in set.
var Form = link.Form{
	Model:    "speedup",
	Keys:     []string{"data", "y", "terms", "region", "w", "n", "pfrom", "pto", "model", "work"},
	Defaults: func() link.Inputs { return Defaults(DefaultData, nil) },
	Fill: func(vals link.Inputs) link.Inputs {
		id := vals["data"]
		if id == "" {
			id = DefaultData
		}
		in := Defaults(id, nil)
		for k, v := range vals {
			in[k] = v
		}
		return in
	},
}

// Defaults are the inputs of a data set before any change: DefaultsFor's,
// automatic weighting, P from 2, and "P to" left empty (ParseScenario
// takes DefaultPTo for it).
func Defaults(id string, t *dataset.Table) link.Inputs {
	d := DefaultsFor(id, t)
	n := d.N
	if n == "" {
		n = "2^13"
		if t != nil {
			if ns, ok := t.Column("N"); ok && len(ns) > 0 {
				n = units.FormatCount(int64(maxFinite(ns)))
			}
		}
	}
	return link.Inputs{"data": id, "y": d.Y, "terms": d.Terms, "region": d.Region, "w": fit.Auto.String(),
		"n": n, "pfrom": "2", "pto": "", "model": "", "work": DefaultWork}
}

// Scenario is the speedup model's inputs, parsed. The data set and the
// published model are named, not read: the caller has the tables.
type Scenario struct {
	Data, Y, Model string
	Terms          []fit.Term
	Region         fit.Cond
	Weighting      fit.Weighting
	// Curves is set when the speedup chart's inputs were read: the data
	// has problem-size and processor columns.
	Curves     bool
	N          float64
	PFrom, PTo float64
	Work       fit.Term
	// TermsAt is the byte offset of a syntax error in terms, or -1.
	TermsAt int
}

// labels name each key in messages as the page's fields do.
var labels = map[string]string{
	"terms": "Terms", "region": "Characterisation region", "w": "Weighting", "n": "N for the speedup chart",
	"pfrom": "P from", "pto": "P to", "work": "Work W(N) for Sun–Ni",
}

// ParseScenario reads every input, naming each one that does not read by
// its key. frame is the data as the fit sees it; when it has columns N and
// P the speedup chart's inputs are read too (Curves).
func ParseScenario(in link.Inputs, frame fit.Frame) (Scenario, field.Errors) {
	var es field.Errors
	add := func(key, msg string) { es = append(es, field.Error{Field: key, Msg: labels[key] + ": " + msg}) }
	sc := Scenario{Data: strings.TrimSpace(in["data"]), Y: strings.TrimSpace(in["y"]), Model: strings.TrimSpace(in["model"]), TermsAt: -1}
	terms, err := fit.ParseTerms(in["terms"])
	if err != nil {
		var se *fit.SyntaxError
		if errors.As(err, &se) {
			sc.TermsAt = se.Offset
		}
		add("terms", err.Error()+". Write terms separated by commas, as products and quotients of N, P, numbers, ^ and log2( ), e.g. 1, N/P*log2(P)^2, P*log2(P).")
	} else if len(terms) > MaxTerms {
		add("terms", fmt.Sprintf("%d terms; at most %d are accepted", len(terms), MaxTerms))
	}
	sc.Terms = terms
	if r := strings.TrimSpace(in["region"]); r != "" {
		c, err := fit.ParseCond(r)
		if err != nil {
			add("region", err.Error()+". Write comparisons joined by && and ||, e.g. N <= 2^9 && P <= 2^4; leave it empty to fit every row.")
		}
		sc.Region = c
	}
	sc.Weighting = fit.Auto
	if w := strings.TrimSpace(in["w"]); w != "" {
		if sc.Weighting, err = fit.ParseWeighting(w); err != nil {
			add("w", err.Error())
		}
	}
	_, hasN := frame.Column("N")
	_, hasP := frame.Column("P")
	if !hasN || !hasP {
		return sc, es
	}
	sc.Curves = true
	n, err := units.ParseCount(strings.TrimSpace(in["n"]))
	switch {
	case err != nil:
		add("n", err.Error()+" (e.g. 8192, 8Ki, 2^13)")
	case n < 2 || n > 1<<40:
		add("n", "between 2 and 2^40")
	}
	sc.N = float64(n)
	pto := in["pto"]
	if strings.TrimSpace(pto) == "" {
		pto = DefaultPTo(frame, in["n"])
	}
	var pes field.Errors
	sc.PFrom, sc.PTo, pes = ParsePRange(in["pfrom"], pto, sc.N)
	es = append(es, pes...)
	if w := strings.TrimSpace(in["work"]); w != "" {
		t, err := fit.ParseTerm(w)
		if err == nil {
			for _, v := range t.Vars() {
				if v != "N" {
					err = fmt.Errorf("it reads %s; W is a function of N only", v)
				}
			}
		}
		if err != nil {
			add("work", err.Error()+" (e.g. N*log2(N)^2; empty leaves the curve out)")
		}
		sc.Work = t
	}
	return sc, es
}

// Spec is the analysis the scenario asks for on frame, whose measured
// column is y; fixed are a published model's values other than N and P.
func (sc Scenario) Spec(frame fit.Frame, fixed map[string]float64) Spec {
	return Spec{Data: frame, T: sc.Y, Terms: sc.Terms, Train: sc.Region, Weighting: sc.Weighting,
		Ns: []float64{sc.N}, Ps: ProcCounts(sc.PFrom, sc.PTo), Fixed: fixed, Work: sc.Work}
}

// DefaultPTo is twice the largest P measured (at least 16), not beyond N
// (the sorts of Chittor's thesis run with N >= P) nor MaxChartP.
func DefaultPTo(f fit.Frame, n string) string {
	pmax := 16.0
	if ps, ok := f.Column("P"); ok {
		if m := maxFinite(ps); 2*m > pmax {
			pmax = 2 * m
		}
	}
	if v, err := units.ParseCount(n); err == nil && float64(v) < pmax && v >= 2 {
		pmax = float64(v)
	}
	return units.FormatCount(int64(min(pmax, MaxChartP)))
}

// ParsePRange reads "P from" and "P to" for a chart at problem size n,
// naming each that is out of range.
func ParsePRange(from, to string, n float64) (lo, hi float64, es field.Errors) {
	a, err := units.ParseCount(strings.TrimSpace(from))
	switch {
	case err != nil:
		es = append(es, field.Error{Field: "pfrom", Msg: "P from: " + err.Error() + "; a whole number of processors from 1 to 2^20 (e.g. 2, 64, 2^6)"})
	case a < 1 || a > MaxChartP:
		es = append(es, field.Error{Field: "pfrom", Msg: fmt.Sprintf("P from: %s is out of range; a whole number from 1 to 2^20", units.FormatCount(a))})
	}
	b, err := units.ParseCount(strings.TrimSpace(to))
	upper := int64(MaxChartP)
	if n >= 1 && n < MaxChartP {
		upper = int64(n)
	}
	switch {
	case err != nil:
		es = append(es, field.Error{Field: "pto", Msg: "P to: " + err.Error() + fmt.Sprintf("; a whole number of processors from P from to %s (e.g. 256, 2^10)", units.FormatCount(upper))})
	case es.Field("pfrom") == "" && b < a:
		es = append(es, field.Error{Field: "pto", Msg: fmt.Sprintf("P to: %s is below P from (%s); a whole number from P from to %s", units.FormatCount(b), units.FormatCount(a), units.FormatCount(upper))})
	case b > upper:
		es = append(es, field.Error{Field: "pto", Msg: fmt.Sprintf("P to: %s is out of range; at most %s (N, the problem size, and 2^20 bound it)", units.FormatCount(b), units.FormatCount(upper))})
	}
	return float64(a), float64(b), es
}

// ProcCounts are the processor counts of the speedup chart: lo, doubled
// while at most hi, and hi.
func ProcCounts(lo, hi float64) []float64 {
	var out []float64
	for q := lo; q >= 1 && q <= hi; q *= 2 {
		out = append(out, q)
	}
	if len(out) > 0 && out[len(out)-1] != hi {
		out = append(out, hi)
	}
	return out
}

// HasColumn reports whether t has a numeric column called name.
func HasColumn(t *dataset.Table, name string) bool {
	if t == nil {
		return false
	}
	c := t.Col(name)
	return c != nil && c.Kind != dataset.Text
}

// NumericColumns lists the columns of t that hold numbers.
func NumericColumns(t *dataset.Table) []dataset.Column {
	var out []dataset.Column
	if t == nil {
		return out
	}
	for _, c := range t.Columns {
		if c.Kind != dataset.Text {
			out = append(out, c)
		}
	}
	return out
}

// GuessColumn finds a numeric column by one of the names (case-insensitive),
// else, when last is set, a duration column, else the last numeric one.
func GuessColumn(t *dataset.Table, names []string, last bool) string {
	cols := NumericColumns(t)
	for _, n := range names {
		for _, c := range cols {
			if strings.EqualFold(c.Name, n) || strings.EqualFold(c.Header, n) {
				return c.Name
			}
		}
	}
	if !last || len(cols) == 0 {
		return ""
	}
	for _, c := range cols {
		if c.Kind == dataset.Duration {
			return c.Name
		}
	}
	return cols[len(cols)-1].Name
}

// FrameFor presents a table to the fit with the chosen problem-size and
// processor columns named N and P, as terms are written (the thesis's
// notation); the measured column keeps its name. A column that already has
// one of these names but was not chosen for it is left out, so it cannot
// be read in place of the chosen one.
func FrameFor(t *dataset.Table, nCol, pCol string) fit.Frame {
	var f fit.Frame
	for _, c := range NumericColumns(t) {
		name := c.Name
		switch {
		case nCol != "" && name == nCol:
			name = "N"
		case pCol != "" && name == pCol:
			name = "P"
		case name == "N" && nCol != "", name == "P" && pCol != "":
			continue
		}
		f.Names = append(f.Names, name)
		f.Cols = append(f.Cols, c.Values)
	}
	return f
}

// Columns guesses a table's problem-size and processor columns.
func Columns(t *dataset.Table, y string) (nCol, pCol string) {
	nCol = GuessColumn(t, []string{"N", "n", "size"}, false)
	pCol = GuessColumn(t, []string{"P", "p", "procs", "processors", "threads"}, false)
	if nCol == y {
		nCol = ""
	}
	if pCol == y {
		pCol = ""
	}
	return nCol, pCol
}

func maxFinite(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) && x > m {
			m = x
		}
	}
	return m
}
