package superstep

import (
	"fmt"
	"math"
	"strings"
)

// Function is one of the paper's cost functions (section 4.2).
type Function int

const (
	// H = L + g_h·h, the BSP-like function.
	H Function = iota
	// HM = L + g_h·h + g_M·M.
	HM
	// HrHw = L + g_hr·h_r + g_hw·h_w.
	HrHw
	// HrHwM = L + g_hr·h_r + g_hw·h_w + g_M·M, the paper's best function for
	// the Bad family (section 4.2.2).
	HrHwM
	// HrHwMc = L + g_hrc·h_rc + g_hrm·h_rm + g_hwc·h_wc + g_hwm·h_wm + g_M·M,
	// "HrHwM-c", the paper's best function for the Good family (4.2.1).
	HrHwMc
)

// Functions lists the cost functions in the order of the paper's tables.
var Functions = []Function{H, HrHw, HM, HrHwM, HrHwMc}

var functionNames = map[Function]string{H: "H", HM: "HM", HrHw: "HrHw", HrHwM: "HrHwM", HrHwMc: "HrHwM-c"}

// functionColumns are the features each function is linear in, after the
// constant L.
var functionColumns = map[Function][]string{
	H:      {"h"},
	HM:     {"h", "M"},
	HrHw:   {"h_r", "h_w"},
	HrHwM:  {"h_r", "h_w", "M"},
	HrHwMc: {"h_rc", "h_rm", "h_wc", "h_wm", "M"},
}

func (f Function) String() string {
	if s, ok := functionNames[f]; ok {
		return s
	}
	return fmt.Sprintf("Function(%d)", int(f))
}

// ParseFunction reads a function's name as the paper writes it ("HrHwM-c";
// case and the hyphen are not significant).
func ParseFunction(s string) (Function, error) {
	norm := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "-", ""))
	for f, name := range functionNames {
		if strings.ToLower(strings.ReplaceAll(name, "-", "")) == norm {
			return f, nil
		}
	}
	return 0, fmt.Errorf("cost function %q: use H, HM, HrHw, HrHwM or HrHwM-c", s)
}

// Columns returns the feature columns the function is linear in (without
// the constant).
func (f Function) Columns() []string {
	return append([]string(nil), functionColumns[f]...)
}

// TermList returns the function's terms in engine/fit's term language, the
// constant first: "1, h_r, h_w, M" for HrHwM.
func (f Function) TermList() string {
	return strings.Join(append([]string{"1"}, functionColumns[f]...), ", ")
}

// Coefficients are the named coefficients of the cost functions, in
// microseconds (L) and microseconds per access (the g's), as the superstep paper prints
// them in Tables 1–4. A function reads only the coefficients of its own
// terms; the others are ignored.
type Coefficients struct {
	L    float64 `json:"L"`
	Gh   float64 `json:"g_h,omitempty"`
	GM   float64 `json:"g_M,omitempty"`
	Ghr  float64 `json:"g_hr,omitempty"`
	Ghw  float64 `json:"g_hw,omitempty"`
	Ghrc float64 `json:"g_hrc,omitempty"`
	Ghrm float64 `json:"g_hrm,omitempty"`
	Ghwc float64 `json:"g_hwc,omitempty"`
	Ghwm float64 `json:"g_hwm,omitempty"`
}

// CoefficientName returns the name of the coefficient that multiplies a
// feature column ("g_hr" for "h_r"; "L" for the constant "1").
func CoefficientName(col string) string {
	if col == "1" {
		return "L"
	}
	return "g_" + strings.ReplaceAll(col, "_", "")
}

// slot returns the coefficient that multiplies col.
func (c *Coefficients) slot(col string) *float64 {
	switch col {
	case "1":
		return &c.L
	case "h":
		return &c.Gh
	case "M":
		return &c.GM
	case "h_r":
		return &c.Ghr
	case "h_w":
		return &c.Ghw
	case "h_rc":
		return &c.Ghrc
	case "h_rm":
		return &c.Ghrm
	case "h_wc":
		return &c.Ghwc
	case "h_wm":
		return &c.Ghwm
	}
	return nil
}

// Get returns the coefficient multiplying feature column col ("1" for L).
func (c Coefficients) Get(col string) float64 {
	if s := c.slot(col); s != nil {
		return *s
	}
	return 0
}

// Set sets the coefficient multiplying feature column col ("1" for L).
func (c *Coefficients) Set(col string, v float64) error {
	s := c.slot(col)
	if s == nil {
		return fmt.Errorf("no coefficient for column %q", col)
	}
	*s = v
	return nil
}

// Vector returns the function's coefficients in the order of its terms
// (L first).
func (c Coefficients) Vector(f Function) []float64 {
	v := []float64{c.L}
	for _, col := range functionColumns[f] {
		v = append(v, c.Get(col))
	}
	return v
}

// Validate checks that the coefficients f reads are finite.
func (c Coefficients) Validate(f Function) error {
	for _, col := range append([]string{"1"}, functionColumns[f]...) {
		if v := c.Get(col); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: coefficient %s = %g; a finite number is needed", f, CoefficientName(col), v)
		}
	}
	return nil
}

// Term is one term's share of a cost: coefficient × feature, in µs.
type Term struct {
	Coefficient string  // "L", "g_hr", ...
	Column      string  // "1", "h_r", ...
	Coef        float64 // µs per access (µs for L)
	Value       float64 // the feature's value (1 for L)
	Micros      float64 // Coef·Value
}

// Eval returns the cost of features x under function f with coefficients c,
// in microseconds, and each term's share. The result is finite for
// validated coefficients and counts up to MaxAccesses.
func (f Function) Eval(c Coefficients, x Features) (float64, []Term) {
	terms := make([]Term, 0, 1+len(functionColumns[f]))
	terms = append(terms, Term{Coefficient: "L", Column: "1", Coef: c.L, Value: 1, Micros: c.L})
	total := c.L
	for _, col := range functionColumns[f] {
		v, _ := x.Value(col)
		g := c.Get(col)
		terms = append(terms, Term{Coefficient: CoefficientName(col), Column: col, Coef: g, Value: v, Micros: g * v})
		total += g * v
	}
	return total, terms
}

// Family is one of the paper's two extreme access-pattern families
// (section 4): Good maximises locality (consecutive words, primed caches,
// no invalidations), Bad minimises it (one word per cache line, maximal
// invalidations).
type Family int

const (
	Good Family = iota
	Bad
)

func (f Family) String() string {
	if f == Bad {
		return "Bad"
	}
	return "Good"
}

// Region is the subset of supersteps a Good-family function was fitted on
// (the superstep paper, section 4.2.1): R0 holds the supersteps with h <= C (all in
// cache: h_rm = h_wm = 0), R1 those with h > C. The Bad family is fitted on
// all supersteps (AllRegions).
type Region int

const (
	AllRegions Region = iota
	R0
	R1
)

func (r Region) String() string {
	switch r {
	case R0:
		return "R0"
	case R1:
		return "R1"
	}
	return "all"
}

// RegionOf returns R0 when h <= cacheWords and R1 otherwise.
func RegionOf(h, cacheWords float64) Region {
	if h <= cacheWords {
		return R0
	}
	return R1
}
