package app

import (
	"fmt"
	"strings"

	"memwall/engine/fit"
	"memwall/engine/units"
)

// The speedup chart is drawn for P from "P from" to "P to", so a roll-off
// beyond the largest P measured can be looked for. The Ps are P from,
// doubled until P to, and P to itself.

// maxChartP bounds "P to": a million processors, far beyond any of
// the data sets shipped, and a chart of at most 21 doublings.
const maxChartP = 1 << 20

// defaultPTo is twice the largest P measured (at least 16), not beyond N
// (the sorts of Chittor's thesis run with N >= P) nor maxChartP.
func defaultPTo(f fit.Frame, n string) string {
	pmax := 16.0
	if ps, ok := f.Column("P"); ok {
		if m := maxOf(ps); 2*m > pmax {
			pmax = 2 * m
		}
	}
	if v, err := units.ParseCount(n); err == nil && float64(v) < pmax && v >= 2 {
		pmax = float64(v)
	}
	return units.FormatCount(int64(min(pmax, maxChartP)))
}

// parsePRange reads "P from" and "P to" for a chart at problem size n and
// puts an error naming the field and its accepted range into errs.
func parsePRange(from, to string, n float64, errs map[string]string) (lo, hi float64) {
	a, err := units.ParseCount(strings.TrimSpace(from))
	switch {
	case err != nil:
		errs["pfrom"] = "P from: " + err.Error() + "; a whole number of processors from 1 to 2^20 (e.g. 2, 64, 2^6)"
	case a < 1 || a > maxChartP:
		errs["pfrom"] = fmt.Sprintf("P from: %s is out of range; a whole number from 1 to 2^20", units.FormatCount(a))
	}
	b, err := units.ParseCount(strings.TrimSpace(to))
	upper := int64(maxChartP)
	if n >= 1 && n < maxChartP {
		upper = int64(n)
	}
	switch {
	case err != nil:
		errs["pto"] = "P to: " + err.Error() + fmt.Sprintf("; a whole number of processors from P from to %s (e.g. 256, 2^10)", units.FormatCount(upper))
	case errs["pfrom"] == "" && b < a:
		errs["pto"] = fmt.Sprintf("P to: %s is below P from (%s); a whole number from P from to %s", units.FormatCount(b), units.FormatCount(a), units.FormatCount(upper))
	case b > upper:
		errs["pto"] = fmt.Sprintf("P to: %s is out of range; at most %s (N, the problem size, and 2^20 bound it)", units.FormatCount(b), units.FormatCount(upper))
	}
	return float64(a), float64(b)
}

// procCounts are the processor counts of the speedup chart: lo, doubled
// while at most hi, and hi.
func procCounts(lo, hi float64) []float64 {
	var out []float64
	q := lo
	for ; q <= hi; q *= 2 {
		out = append(out, q)
	}
	if len(out) > 0 && out[len(out)-1] != hi {
		out = append(out, hi)
	}
	return out
}
