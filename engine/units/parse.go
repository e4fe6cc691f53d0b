package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxExactInt is the largest integer a float64 holds exactly; counts and sizes
// above it are refused rather than silently rounded.
const maxExactInt = 1 << 53

var (
	siPrefix = map[string]float64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
	// Binary prefixes; "K" alone is decimal, "Ki" binary.
	iecPrefix = map[string]float64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50}
	timeUnit  = map[string]float64{"s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9, "ps": 1e-12, "min": 60}
)

// splitNumber splits "2.12 GB/s" into the number "2.12" and the unit "GB/s".
// It accepts "2^23" as a power of two written as a number.
func splitNumber(s string) (value float64, unit string, err error) {
	value, _, unit, err = splitNumberText(s)
	return value, unit, err
}

// splitNumberText is splitNumber that also returns the number as written
// ("" for a power like 2^23, which is whole).
func splitNumberText(s string) (value float64, num, unit string, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, "", "", errors.New("empty value")
	}
	if i := strings.Index(s, "^"); i > 0 {
		base, err1 := strconv.ParseUint(strings.TrimSpace(s[:i]), 10, 32)
		rest := strings.TrimSpace(s[i+1:])
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		exp, err2 := strconv.ParseUint(rest[:j], 10, 16)
		if err1 != nil || err2 != nil || base < 2 {
			return 0, "", "", fmt.Errorf("%q is not a power like 2^23", s)
		}
		v := math.Pow(float64(base), float64(exp))
		if math.IsInf(v, 0) || v > 1e300 {
			return 0, "", "", fmt.Errorf("%q is too large", s)
		}
		return v, "", strings.TrimSpace(rest[j:]), nil
	}
	end := 0
	for end < len(s) {
		c := s[end]
		if (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' {
			end++
			continue
		}
		// An exponent: "1e6", "2.5E-9"; but not the "E" of "EB" (not a unit we know).
		if (c == 'e' || c == 'E') && end > 0 && end+1 < len(s) {
			n := s[end+1]
			if (n >= '0' && n <= '9') || ((n == '-' || n == '+') && end+2 < len(s) && s[end+2] >= '0' && s[end+2] <= '9') {
				end += 2
				continue
			}
		}
		break
	}
	num = s[:end]
	if num == "" {
		return 0, "", "", fmt.Errorf("%q does not start with a number", s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, "", "", fmt.Errorf("%q is not a number", num)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", "", fmt.Errorf("%q is not a finite number", num)
	}
	return v, num, strings.TrimSpace(s[end:]), nil
}

// prefixFactor reads a multiplier prefix: "", K, k, M, G, T, Ki, Mi, Gi, Ti.
func prefixFactor(p string) (float64, bool) {
	if f, ok := iecPrefix[p]; ok {
		return f, true
	}
	if p == "Kib" || p == "kib" {
		return 0, false
	}
	f, ok := siPrefix[p]
	return f, ok
}

// ErrTooLarge marks a count or size past what a float64 holds exactly; a
// caller with a lower limit of its own states that one instead.
var ErrTooLarge = errors.New("too large")

// ParseCount parses a non-negative whole number of elements: "8388608", "8Mi"
// (8·2^20), "8M" (8·10^6), "2^23", "1e6". A fraction is refused.
func ParseCount(s string) (int64, error) {
	v, num, unit, err := splitNumberText(s)
	if err != nil {
		return 0, err
	}
	f, ok := prefixFactor(unit)
	if !ok {
		return 0, fmt.Errorf("%q: unknown multiplier %q (use k, M, G, Ki, Mi, Gi or 2^n)", s, unit)
	}
	if !wholeAsWritten(num, f) {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return toInt(s, v*f)
}

// wholeAsWritten reports whether the decimal num times the whole factor f
// is a whole number, read exactly: "1.0000000000000001" rounds to the
// float64 1 but is not whole, and is refused rather than truncated.
func wholeAsWritten(num string, f float64) bool {
	if num == "" || !strings.ContainsAny(num, ".eE") {
		return true
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return true // splitNumber read it; its float test decides
	}
	return r.Mul(r, new(big.Rat).SetFloat64(f)).IsInt()
}

func toInt(s string, v float64) (int64, error) {
	if v < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	if v > maxExactInt {
		return 0, fmt.Errorf("%q is %w (at most 2^53)", s, ErrTooLarge)
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return int64(v), nil
}

// ParseSize parses a size in bytes: "262144", "256KiB", "256 KB" (256000),
// "8Mi", "2^23", "512 KiB", "4MB". A bare number is bytes; "B" may follow the
// prefix or be left out.
func ParseSize(s string) (int64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	unit = strings.TrimSpace(unit)
	p := unit
	switch {
	case unit == "B" || unit == "bytes" || unit == "byte":
		p = ""
	case strings.HasSuffix(unit, "B") && len(unit) > 1:
		p = unit[:len(unit)-1]
	}
	f, ok := prefixFactor(p)
	if !ok {
		return 0, fmt.Errorf("%q: unknown size unit %q (use B, KB, KiB, MB, MiB, GB, GiB)", s, unit)
	}
	if f > 1 && v >= 0 && v*f <= maxExactInt {
		// A size with a prefix is a rounded one, as the app shows sizes
		// ("4.993 MiB"): it is taken to the nearest byte, so what is shown
		// can be typed back. A bare byte count must be whole.
		return int64(math.Round(v * f)), nil
	}
	return toInt(s, v*f)
}

// ParseBandwidth parses bytes per second: "2.12GB/s", "1.06 GiB/s",
// "850MB/s", "850 MB/sec". A bare number is bytes per second.
func ParseBandwidth(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	p := unit
	for _, suf := range []string{"B/s", "B/sec", "Bps"} {
		if strings.HasSuffix(unit, suf) {
			p = strings.TrimSuffix(unit, suf)
			break
		}
	}
	if p == unit && unit != "" {
		return 0, fmt.Errorf("%q: unknown bandwidth unit %q (use B/s, MB/s, GB/s, MiB/s, GiB/s)", s, unit)
	}
	f, ok := prefixFactor(p)
	if !ok {
		return 0, fmt.Errorf("%q: unknown bandwidth unit %q (use B/s, MB/s, GB/s, MiB/s, GiB/s)", s, unit)
	}
	return finite(s, v*f)
}

// ParseDuration parses a time in seconds: "7.52ns", "11.76 ns", "1.5ms",
// "3 us", "2 µs", "0.04s". A bare number is seconds.
func ParseDuration(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	if unit == "" {
		return finite(s, v)
	}
	f, ok := timeUnit[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown time unit %q (use s, ms, us, µs, ns)", s, unit)
	}
	return finite(s, v*f)
}

// ParseFrequency parses "133MHz", "2.66 GHz", "1e9" into hertz.
func ParseFrequency(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	p := strings.TrimSuffix(strings.TrimSuffix(unit, "Hz"), "hz")
	if p == unit && unit != "" {
		return 0, fmt.Errorf("%q: unknown frequency unit %q (use Hz, MHz, GHz)", s, unit)
	}
	f, ok := siPrefix[p]
	if !ok {
		return 0, fmt.Errorf("%q: unknown frequency unit %q (use Hz, MHz, GHz)", s, unit)
	}
	return finite(s, v*f)
}

// ParseNumber parses a plain real number, allowing SI/IEC multipliers ("1.5k").
func ParseNumber(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	f, ok := prefixFactor(unit)
	if !ok {
		return 0, fmt.Errorf("%q: unexpected %q after the number", s, unit)
	}
	return finite(s, v*f)
}

// finite refuses NaN and ±Inf and turns "-0" into 0, so a negative zero
// typed by a user never reaches an output.
func finite(s string, v float64) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	if v == 0 {
		return 0, nil
	}
	return v, nil
}
