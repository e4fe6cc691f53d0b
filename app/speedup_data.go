package app

import (
	"sort"
	"strings"
	"sync"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/presets"
)

// Built-in data sets of Chittor's thesis and what the Speedup page starts with for
// each. Table 6 holds T(N, P) and is what eq. 14 was fitted to; Tables 3
// and 4 hold the Seq(P) and Par(N) of the simple theoretic model (section
// 5.2.1); Table 5 holds Multi's own speedup estimate, which the page also
// draws beside the fitted curve when Table 6 is chosen.
const (
	table3 = "chittor-table3"
	table4 = "chittor-table4"
	table5 = "chittor-table5"
	table6 = "chittor-table6"
	// fileData is the data-set value of an imported file; files are not
	// carried in links.
	fileData = "file"
)

type dataDefaults struct {
	Y, Terms, Region string
	N                string // problem size for the speedup chart
	// Speedups marks a data set whose measured column is itself a
	// speedup, so no speedup curve is derived from its fit.
	Speedups bool
}

// eq14TermSet is the preset term set that eq. 14 fits.
const eq14TermSet = "chittor-eq14-terms"

func termSetText(id string) string {
	for _, ts := range presets.TermSets() {
		if ts.ID == id {
			return ts.Terms
		}
	}
	return "1"
}

// defaultsFor is the starting point for a data set: the thesis's own choices
// where it made them (eq. 14's terms and region for Table 6), and a plain
// form of the single-variable tables otherwise.
func defaultsFor(id string, t *dataset.Table) dataDefaults {
	switch id {
	case table6:
		return dataDefaults{Y: "T", Terms: termSetText(eq14TermSet), Region: "N <= 2^9 && P <= 2^4", N: "2^13"}
	case table3:
		// Seq(P): process creation and barriers, P and P·log P (section 4.3).
		return dataDefaults{Y: "seq", Terms: "1, P, P*log2(P)", Region: "P <= 2^4"}
	case table4:
		// Par(N): the sequential bitonic sort, N·log²N and lower orders.
		return dataDefaults{Y: "par", Terms: "1, N, N*log2(N), N*log2(N)^2", Region: "N <= 2^9"}
	case table5:
		return dataDefaults{Y: "S", Terms: "1, log2(P), log2(P)^2", Region: "N <= 2^9 && P <= 2^4", Speedups: true}
	}
	d := dataDefaults{Y: guessColumn(t, []string{"T", "t", "time", "seconds", "runtime"}, true), Terms: "1", N: ""}
	if hasColumn(t, "N") && hasColumn(t, "P") {
		d.Terms = termSetText(eq14TermSet)
	}
	return d
}

// speedupDataset reports whether a built-in data set has what the page
// draws speedup against, a problem size N or a processor count P; the
// other built-in sets (the lines-touched paper's messages) belong to other pages.
func speedupDataset(id string) bool { return speedupDatasets()[id] }

// speedupDatasets reads the built-in sets once: they are embedded and do
// not change, and the menu is rendered on every keystroke.
var speedupDatasets = sync.OnceValue(func() map[string]bool {
	ok := map[string]bool{}
	for _, d := range presets.Datasets() {
		if t, err := presets.Dataset(d.ID); err == nil && (hasColumn(t, "N") || hasColumn(t, "P")) {
			ok[d.ID] = true
		}
	}
	return ok
})

func hasColumn(t *dataset.Table, name string) bool {
	if t == nil {
		return false
	}
	c := t.Col(name)
	return c != nil && c.Kind != dataset.Text
}

// numericColumns lists the columns that hold numbers.
func numericColumns(t *dataset.Table) []dataset.Column {
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

// guessColumn finds a numeric column by one of the names (case-insensitive),
// else, when last is set, a duration column, else the last numeric one.
func guessColumn(t *dataset.Table, names []string, last bool) string {
	cols := numericColumns(t)
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

// frameFor presents a table to the fit with the chosen problem-size and
// processor columns named N and P, as the terms are written (Chittor's thesis's
// notation); the measured column keeps its name. A column that already has
// one of these names but was not chosen for it is left out, so it cannot
// be read in place of the chosen one.
func frameFor(t *dataset.Table, nCol, pCol string) fit.Frame {
	var f fit.Frame
	for _, c := range numericColumns(t) {
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

// seriesAt returns the (x, y) pairs of a built-in table where column sel
// equals v (or every row when sel is ""), sorted by x.
func seriesAt(id, sel string, v float64, x, y string) [][2]float64 {
	t, err := presets.Dataset(id)
	if err != nil {
		return nil
	}
	xs, ok1 := t.Column(x)
	ys, ok2 := t.Column(y)
	if !ok1 || !ok2 {
		return nil
	}
	var ss []float64
	if sel != "" {
		var ok bool
		if ss, ok = t.Column(sel); !ok {
			return nil
		}
	}
	var out [][2]float64
	for i := range xs {
		if sel == "" || ss[i] == v {
			out = append(out, [2]float64{xs[i], ys[i]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
