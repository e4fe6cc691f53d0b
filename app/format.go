package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Formatting of numbers, counts and times shared by the pages.

func formatRate(r float64) string {
	switch {
	case r >= 1e9:
		return strconv.FormatFloat(r/1e9, 'f', 2, 64) + " G accesses/s"
	case r >= 1e6:
		return strconv.FormatFloat(r/1e6, 'f', 1, 64) + " M accesses/s"
	case r >= 1e3:
		return strconv.FormatFloat(r/1e3, 'f', 1, 64) + " k accesses/s"
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + " accesses/s"
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return groupDigits(n) + " " + many
}

// groupDigits writes 12345678 as "12 345 678", readable and exact.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ' ')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// fmtNum shows a number with six significant digits, whole numbers up to
// a billion, and powers of ten outside [1e-3, 1e9) so table columns stay narrow.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e-3 && math.Abs(v) < 1e6:
		return strconv.FormatFloat(v, 'g', 6, 64)
	case math.Abs(v) >= 1e6 && math.Abs(v) < 1e9:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'e', 4, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	e, _ := strconv.Atoi(exp)
	return mant + "e" + strconv.Itoa(e)
}

// fmtPct shows a fraction as a percentage.
func fmtPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64) + " %"
}

// finite reports whether v can go into a chart or a table.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
