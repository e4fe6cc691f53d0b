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
	if strings.Contains(s, "e+") && math.Abs(v) < 1e21 {
		// 11240 with four digits is "1.124e+04": write the rounded
		// value's digits instead, which every parser reads.
		r, _ := strconv.ParseFloat(s, 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return s
}

// FormatSize writes bytes with the largest binary prefix that keeps the
// number at least 1: 262144 -> "256 KiB", 1000 -> "1000 B".
func FormatSize(b int64) string { return sizePrec(b, 4) }

func sizePrec(b int64, prec int) string {
	if b < 0 {
		return "-" + sizePrec(-b, prec)
	}
	names := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v := float64(b)
	i := 0
	for v >= 1024 && i < len(names)-1 {
		v /= 1024
		i++
	}
	return trim(v, prec) + " " + names[i]
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
	}{{50, "Pi"}, {40, "Ti"}, {30, "Gi"}, {20, "Mi"}, {10, "Ki"}} {
		if n >= 1<<p.shift && n%(1<<p.shift) == 0 {
			return strconv.FormatInt(n>>p.shift, 10) + p.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// IsPowerOfTwo reports whether n is a positive power of two.
func IsPowerOfTwo(n int64) bool { return n > 0 && bits.OnesCount64(uint64(n)) == 1 }

// FormatBandwidth writes bytes per second with a decimal prefix: "2.12 GB/s".
func FormatBandwidth(v float64) string { return bandwidthPrec(v, 4) }

func bandwidthPrec(v float64, prec int) string {
	switch a := math.Abs(v); {
	case a >= 1e12:
		return trim(v/1e12, prec) + " TB/s"
	case a >= 1e9:
		return trim(v/1e9, prec) + " GB/s"
	case a >= 1e6:
		return trim(v/1e6, prec) + " MB/s"
	case a >= 1e3:
		return trim(v/1e3, prec) + " KB/s"
	}
	return trim(v, prec) + " B/s"
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

// FormatLimit writes a bound as the fields accept it: a power of two as
// "2^50", anything else as digits.
func FormatLimit(n int64) string {
	if IsPowerOfTwo(n) && n >= 1<<10 {
		return "2^" + strconv.Itoa(bits.TrailingZeros64(uint64(n)))
	}
	return strconv.FormatInt(n, 10)
}

// The Field* forms are for a value put in a form field: in the unit the
// display uses, with the fewest significant digits (4 to 6) that parse back
// to the value itself, else 6. The user sees sensible digits, and saving an
// untouched field keeps the value, or moves it by less than a millionth.

// FieldBandwidth is FormatBandwidth for a field.
func FieldBandwidth(v float64) string {
	return fieldForm(v, func(p int) string { return bandwidthPrec(v, p) }, ParseBandwidth)
}

// FieldSeconds is FormatSeconds for a field.
func FieldSeconds(v float64) string {
	return fieldForm(v, func(p int) string { return FormatSecondsPrec(v, p) }, ParseDuration)
}

// FormatNumber writes a plain number for display with four significant
// digits and no trailing zeros: a mean of 72.10893 lines is "72.11".
func FormatNumber(v float64) string { return trim(v, 4) }

// FieldNumber is a plain number for a field (a fitted coefficient).
func FieldNumber(v float64) string {
	return fieldForm(v, func(p int) string { return strconv.FormatFloat(v, 'g', p, 64) }, ParseNumber)
}

// FieldSize is FormatSize for a field; a size no prefix writes exactly in
// six digits is written in bytes, which always is.
func FieldSize(b int64) string {
	for p := 4; p <= 6; p++ {
		if s := sizePrec(b, p); mustSize(s) == b {
			return s
		}
	}
	return strconv.FormatInt(b, 10) + " B"
}

func mustSize(s string) int64 {
	v, err := ParseSize(s)
	if err != nil {
		return -1
	}
	return v
}

func fieldForm(v float64, format func(int) string, parse func(string) (float64, error)) string {
	for p := 4; p <= 6; p++ {
		s := format(p)
		if got, err := parse(s); err == nil && got == v {
			return s
		}
	}
	return format(6)
}
