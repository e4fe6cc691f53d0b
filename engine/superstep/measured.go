package superstep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"memwall/engine/dataset"
	"memwall/engine/fit"
)

// MeasuredColumns are the columns a table of measured supersteps needs, as
// memwall superstep-suites writes them: the suite, whether the superstep
// ran in bad mode (1) or good mode (0), p, the counts and their split at C,
// and the time with its unit in the header (time_us).
var MeasuredColumns = []string{"suite", "bad", "p", "h_r", "h_w", "M", "h_rc", "h_rm", "h_wc", "h_wm", "time"}

// Measured is a table of measured supersteps read into the samples of the
// two families, with C, the cache size in words that split h_r and h_w
// into h_rc and h_rm when they were measured.
type Measured struct {
	Good, Bad  []Sample
	CacheWords float64
	// Ps lists the processor counts measured, ascending.
	Ps []int
}

// ReadMeasured takes the rows of a measured table. C is the in-cache part
// h_rc (or h_wc) of any row whose accesses go beyond the cache; when none
// does, every superstep lies in R0 and C is taken as the largest h.
func ReadMeasured(t *dataset.Table) (Measured, error) {
	var m Measured
	cols := map[string][]float64{}
	for _, name := range MeasuredColumns {
		c, ok := t.Column(name)
		if !ok && t.Col(name) != nil {
			_, err := t.Numeric(name)
			return m, err
		}
		if !ok {
			return m, fmt.Errorf("no numeric column %q (measured supersteps need %s, as memwall superstep-suites writes them)", name, strings.Join(MeasuredColumns, ", "))
		}
		cols[name] = c
	}
	if tc := t.Col("time"); tc == nil || tc.Kind != dataset.Duration {
		return m, errors.New("the time column has no unit: name it time_us (or time_ms, time_s)")
	}
	var most float64
	for i := range t.Len() {
		line := i + 1
		if i < len(t.Lines) {
			line = t.Lines[i]
		}
		suite, p, bad := cols["suite"][i], cols["p"][i], cols["bad"][i]
		switch {
		case suite != 1 && suite != 2 && suite != 3:
			return m, fmt.Errorf("line %d: suite %g; the superstep paper's suites are 1, 2 and 3", line, suite)
		case p < 1 || p > MaxProcessors || p != float64(int(p)):
			return m, fmt.Errorf("line %d: p = %g; a whole number from 1 to %d is needed", line, p, MaxProcessors)
		case bad != 0 && bad != 1:
			return m, fmt.Errorf("line %d: bad = %g; 0 (good mode) or 1 (bad mode)", line, bad)
		}
		s := Sample{Suite: int(suite), P: int(p), Counts: Counts{Hr: cols["h_r"][i], Hw: cols["h_w"][i], M: cols["M"][i]}, Micros: cols["time"][i] * 1e6}
		if err := s.Counts.Validate(); err != nil {
			return m, fmt.Errorf("line %d: %v", line, err)
		}
		if cols["h_rm"][i] > 0 {
			m.CacheWords = cols["h_rc"][i]
		} else if cols["h_wm"][i] > 0 {
			m.CacheWords = cols["h_wc"][i]
		}
		most = max(most, s.Counts.Hr, s.Counts.Hw)
		if bad == 1 {
			m.Bad = append(m.Bad, s)
		} else {
			m.Good = append(m.Good, s)
		}
		if !slices.Contains(m.Ps, s.P) {
			m.Ps = append(m.Ps, s.P)
		}
	}
	if t.Len() == 0 {
		return m, errors.New("no measured supersteps")
	}
	if m.CacheWords == 0 {
		m.CacheWords = most
	}
	slices.Sort(m.Ps)
	return m, nil
}

// Fits are both families' cost functions fitted to measured supersteps.
type Fits struct {
	Good, Bad []Fitted
	// GoodSpec and BadSpec say which suite each family was fitted on and
	// which it was judged on.
	GoodSpec, BadSpec FitSpec
}

// FitMeasured fits both families as the superstep paper section 4.2 does: the Good
// family on Suite 1 (R0 and R1 apart at m.CacheWords), judged on Suites 2
// and 3; the Bad family on Suite 2, judged on Suites 1 and 3; all four
// functions of each, with weighting w. A family with no measured
// supersteps is left out.
func FitMeasured(m Measured, w fit.Weighting) (Fits, error) {
	f := Fits{
		GoodSpec: FitSpec{Family: Good, FitSuite: 1, ValidateSuites: []int{2, 3}, CacheWords: m.CacheWords, Weighting: w},
		BadSpec:  FitSpec{Family: Bad, FitSuite: 2, ValidateSuites: []int{1, 3}, CacheWords: m.CacheWords, Weighting: w},
	}
	var err error
	if len(m.Good) > 0 {
		if f.Good, err = FitSuites(m.Good, f.GoodSpec); err != nil {
			return f, fmt.Errorf("Good family: %v", err)
		}
	}
	if len(m.Bad) > 0 {
		if f.Bad, err = FitSuites(m.Bad, f.BadSpec); err != nil {
			return f, fmt.Errorf("Bad family: %v", err)
		}
	}
	return f, nil
}
