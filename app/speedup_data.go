package app

import (
	"sort"
	"sync"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/presets"
)

// Built-in data sets of Chittor's thesis (engine/speedup says what each
// holds). fileData is the data-set value of an imported file; files are not
// carried in links.
const (
	table3   = speedup.Table3
	table4   = speedup.Table4
	table5   = speedup.Table5
	table6   = speedup.Table6
	fileData = "file"
)

type dataDefaults = speedup.DataDefaults

func defaultsFor(id string, t *dataset.Table) dataDefaults { return speedup.DefaultsFor(id, t) }

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

func hasColumn(t *dataset.Table, name string) bool { return speedup.HasColumn(t, name) }

func numericColumns(t *dataset.Table) []dataset.Column { return speedup.NumericColumns(t) }

func guessColumn(t *dataset.Table, names []string, last bool) string {
	return speedup.GuessColumn(t, names, last)
}

func frameFor(t *dataset.Table, nCol, pCol string) fit.Frame { return speedup.FrameFor(t, nCol, pCol) }

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
