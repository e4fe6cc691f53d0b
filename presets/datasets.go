package presets

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strings"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/speedup"
)

// The measured data sets are JSON files, one per published table, each
// carrying its source, table and page.
//
//go:embed datasets/*.json
var datasetFiles embed.FS

// DatasetInfo describes a built-in data set.
type DatasetInfo struct {
	ID     string
	Title  string
	Source string
}

// Datasets lists the built-in measured data sets, sorted by id.
func Datasets() []DatasetInfo {
	ents, _ := datasetFiles.ReadDir("datasets")
	var out []DatasetInfo
	for _, e := range ents {
		id := strings.TrimSuffix(e.Name(), ".json")
		t, err := Dataset(id)
		if err != nil {
			continue
		}
		out = append(out, DatasetInfo{ID: id, Title: t.Title, Source: t.Source})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// oldPrefix began the ids of Chittor's tables, equations and term sets
// before they were named after the thesis ("chittor-table6"). Links and
// commands written then still work: CurrentID maps the old ids to the new.
const oldPrefix = "seed002-"

// CurrentID returns the id a built-in data set, published model or term
// set has now, for an id it may have had in an earlier version; any other
// id is returned as it is.
func CurrentID(id string) string {
	if rest, ok := strings.CutPrefix(id, oldPrefix); ok {
		return "chittor-" + rest
	}
	return id
}

// Dataset returns a fresh copy of the built-in data set with the given id
// (e.g. "chittor-table6"; an earlier id is accepted, see CurrentID).
func Dataset(id string) (*dataset.Table, error) {
	b, err := datasetFiles.ReadFile("datasets/" + CurrentID(id) + ".json")
	if err != nil {
		var ids []string
		ents, _ := datasetFiles.ReadDir("datasets")
		for _, e := range ents {
			ids = append(ids, strings.TrimSuffix(e.Name(), ".json"))
		}
		return nil, fmt.Errorf("no built-in data set %q (known: %s)", id, strings.Join(ids, ", "))
	}
	t, _, err := dataset.ReadJSON(bytes.NewReader(b), dataset.Options{})
	if err != nil {
		return nil, fmt.Errorf("built-in data set %s: %v", id, err)
	}
	return t, nil
}

// FittedModel is a published runtime model: terms with the coefficients
// its source fitted.
type FittedModel struct {
	ID       string
	Title    string
	Equation string // e.g. "eq. 14"
	Source   string
	// Region is the characterisation region the coefficients were fitted
	// on, as a training condition.
	Region string
	// Unit of the predicted time.
	Unit  string
	Terms string
	Coef  []float64
	// Fixed holds parameters that are constant for this model (the buffer
	// size B of eqs. 15, 16 and 18).
	Fixed map[string]float64
}

// Model parses the terms and returns the model.
func (m FittedModel) Model() (fit.Model, error) { return fit.NewModel(m.Terms, m.Coef...) }

// chittor cites the thesis the models, term sets and tables come from.
const chittor = "A. Chittor, Methodology for Accurate Speedup Prediction, M.S. thesis, Portland State University, 1994"

// eq14Terms are the terms of eq. 9 plus the constant that eq. 14 fits.
const eq14Terms = speedup.Eq14Terms

// The limited-buffer models are printed with log²N (eqs. 15, 16, 18), the
// form eq. 12 rewrites eq. 11's log²(N/B) into for a fixed B; they are kept
// as printed.
const bufTerms = "1, N/P, P, N/P*log2(N)^2, P*log2(N)^2"

// FittedModels returns Chittor's thesis's fitted equations 13–18.
func FittedModels() []FittedModel {
	return []FittedModel{
		{ID: "chittor-eq13", Title: "bmergesort, N = P, on Multi", Equation: "eq. 13", Source: chittor + ", section 5.2.4",
			Region: "N <= 32", Unit: "Multi time units",
			Terms: "1, N*log2(N), N, log2(N)^2", Coef: []float64{341, 31.23, -210.81, 403.2}},
		{ID: "chittor-eq14", Title: "bmergesort_ngtp, N > P, on Multi", Equation: "eq. 14", Source: chittor + ", section 5.2.4",
			Region: "N <= 2^9 && P <= 2^4", Unit: "Multi time units",
			Terms: eq14Terms, Coef: []float64{14773, 146, 899, -4486, 22.6, 0.811}},
		{ID: "chittor-eq15", Title: "bmergesort_ext, buffer of 4 elements, on Multi", Equation: "eq. 15", Source: chittor + ", section 5.2.4",
			Region: "N <= 2^9 && P <= 2^4", Unit: "Multi time units", Fixed: map[string]float64{"B": 4},
			Terms: bufTerms, Coef: []float64{23041, -2748, -2470, 285, 45}},
		{ID: "chittor-eq16", Title: "bmergesort_ext, buffer of 16 elements, on Multi", Equation: "eq. 16", Source: chittor + ", section 5.2.4",
			Region: "N <= 2^9 && P <= 2^4", Unit: "Multi time units", Fixed: map[string]float64{"B": 16},
			Terms: bufTerms, Coef: []float64{13573, -1952, -4126, 87.34, 80.26}},
		{ID: "chittor-eq17", Title: "bitonic merge sort, N >= P, unlimited memory, on PVM", Equation: "eq. 17", Source: chittor + ", section 6.2",
			Region: "N <= 2^13 && P <= 2^2", Unit: "ms",
			Terms: eq14Terms, Coef: []float64{161.9, 0.23, 25.36, 167.5, 0.0025, -0.00047}},
		{ID: "chittor-eq18", Title: "bitonic merge sort, limited buffer of 16 elements, on PVM", Equation: "eq. 18", Source: chittor + ", section 6.2",
			Region: "N <= 2^13 && P <= 2^2", Unit: "ms", Fixed: map[string]float64{"B": 16},
			Terms: bufTerms, Coef: []float64{2921, -41.72, -2424.6, 0.63, 46.03}},
	}
}

// FittedModelByID returns one of FittedModels (an earlier id is accepted,
// see CurrentID).
func FittedModelByID(id string) (FittedModel, bool) {
	id = CurrentID(id)
	for _, m := range FittedModels() {
		if m.ID == id {
			return m, true
		}
	}
	return FittedModel{}, false
}

// TermSet is a list of terms derived from an algorithm's analysis, ready to
// be fitted.
type TermSet struct {
	ID       string
	Title    string
	Equation string
	Source   string
	Terms    string
}

// TermSets returns the functional forms of Chittor's thesis: eq. 6 (N = P), eq. 9
// (N > P), eq. 9 with the constant that eq. 14 fits, and eq. 11 (limited
// buffer of B elements; needs a column B).
func TermSets() []TermSet {
	return []TermSet{
		{ID: "chittor-eq6", Title: "bitonic merge sort, N = P", Equation: "eq. 6", Source: chittor + ", section 4.2",
			Terms: "log2(N)^2, N*log2(N), N, 1"},
		{ID: "chittor-eq9", Title: "bitonic merge sort, N > P", Equation: "eq. 9", Source: chittor + ", section 4.3",
			Terms: "N/P*log2(P)^2, P*log2(P), P, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2"},
		{ID: "chittor-eq14-terms", Title: "bitonic merge sort, N > P, with a constant (as fitted in eq. 14)", Equation: "eqs. 9 and 14", Source: chittor + ", sections 4.3 and 5.2.4",
			Terms: eq14Terms},
		{ID: "chittor-eq11", Title: "bitonic merge sort, N >= P, limited buffer of B elements", Equation: "eq. 11", Source: chittor + ", section 4.4",
			Terms: "N/P, N/P*log2(N/B)^2, P*log2(N/B)^2, 1"},
	}
}
