package units

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// trim formats v with up to prec significant digits and no trailing zeros.
func trim(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'g', prec, 64)
	if strings.ContainsAny(s, "e") {
		// Large exponents only appear for absurd inputs; keep them readable.
		return s
	}
	return s
}

// FormatSize writes bytes with the largest binary prefix that keeps the
// number at least 1: 262144 -> "256 KiB", 1000 -> "1000 B".
func FormatSize(b int64) string {
	if b < 0 {
		return "-" + FormatSize(-b)
	}
	names := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(b)
	i := 0
	for v >= 1024 && i < len(names)-1 {
		v /= 1024
		i++
	}
	return trim(v, 4) + " " + names[i]
}

// FormatCount writes an element count the way the paper does where it can:
// exact binary multiples as "8Mi", other values as digits.
func FormatCount(n int64) string {
	if n <= 0 {
		return strconv.FormatInt(n, 10)
	}
	for _, p := range []struct {
		shift uint
		name  string
	}{{40, "Ti"}, {30, "Gi"}, {20, "Mi"}, {10, "Ki"}} {
		if n >= 1<<p.shift && n%(1<<p.shift) == 0 {
			return strconv.FormatInt(n>>p.shift, 10) + p.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// IsPowerOfTwo reports whether n is a positive power of two.
func IsPowerOfTwo(n int64) bool { return n > 0 && bits.OnesCount64(uint64(n)) == 1 }

// FormatBandwidth writes bytes per second with a decimal prefix: "2.12 GB/s".
func FormatBandwidth(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e12:
		return trim(v/1e12, 4) + " TB/s"
	case a >= 1e9:
		return trim(v/1e9, 4) + " GB/s"
	case a >= 1e6:
		return trim(v/1e6, 4) + " MB/s"
	case a >= 1e3:
		return trim(v/1e3, 4) + " KB/s"
	}
	return trim(v, 4) + " B/s"
}

// FormatSeconds writes a time with a unit that keeps 1 to 999 before the
// point: 7.52e-9 -> "7.52 ns", 1.514 -> "1.514 s".
func FormatSeconds(s float64) string { return FormatSecondsPrec(s, 4) }

// FormatSecondsPrec is FormatSeconds with prec significant digits.
func FormatSecondsPrec(s float64, prec int) string {
	a := math.Abs(s)
	switch {
	case s == 0:
		return "0 s"
	case math.IsNaN(s) || math.IsInf(s, 0):
		return "—"
	case a >= 3600*24:
		return trim(s/3600, prec) + " h"
	case a >= 1:
		return trim(s, prec) + " s"
	case a >= 1e-3:
		return trim(s*1e3, prec) + " ms"
	case a >= 1e-6:
		return trim(s*1e6, prec) + " µs"
	case a >= 1e-9:
		return trim(s*1e9, prec) + " ns"
	}
	return trim(s*1e12, prec) + " ps"
}

// FormatFrequency writes hertz with a decimal prefix: "133 MHz".
func FormatFrequency(f float64) string {
	switch {
	case f >= 1e9:
		return trim(f/1e9, 4) + " GHz"
	case f >= 1e6:
		return trim(f/1e6, 4) + " MHz"
	case f >= 1e3:
		return trim(f/1e3, 4) + " kHz"
	}
	return trim(f, 4) + " Hz"
}
