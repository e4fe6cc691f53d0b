package superstep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"memwall/engine/units"
	"memwall/internal/strictjson"
)

// MaxSetFileSize bounds a coefficient file; a real one is a few hundred
// bytes.
const MaxSetFileSize = 64 << 10

// setFile is the on-disk form of a Set. Each family is an object from
// coefficient name to value in µs, with the names the paper uses:
//
//	{"name": "SGI Power Challenge, p = 8", "p": 8, "cache_words": "2^19",
//	 "good":    {"L": 140, "g_hrc": 0.0184, "g_hrm": 0, "g_hwc": 0.0087, "g_hwm": 0, "g_M": 0.00005},
//	 "good_r1": {"L": 0, "g_hrc": 0.0202, "g_hrm": 0.0492, "g_hwc": 0.0082, "g_hwm": 0.0444, "g_M": 0.00027},
//	 "bad":     {"L": 16566, "g_hr": 0.4612, "g_hw": 0.7708, "g_M": 0.1113}}
//
// "good" is HrHwM-c for R0 (h <= C), or for every h when "good_r1" is
// absent; "bad" is HrHwM. cache_words is a count ("524288", "2^19",
// "512Ki") and defaults to the paper's 2^19.
type setFile struct {
	Name       string                     `json:"name,omitempty"`
	Source     string                     `json:"source,omitempty"`
	P          *int                       `json:"p"`
	CacheWords json.RawMessage            `json:"cache_words,omitempty"`
	Good       map[string]json.RawMessage `json:"good"`
	GoodR1     map[string]json.RawMessage `json:"good_r1,omitempty"`
	Bad        map[string]json.RawMessage `json:"bad"`
}

// ReadSet reads a coefficient file (see setFile) and validates it. Errors
// name the field.
func ReadSet(r io.Reader) (Set, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSetFileSize+1))
	if err != nil {
		return Set{}, fmt.Errorf("coefficient file: %v", err)
	}
	if len(data) > MaxSetFileSize {
		return Set{}, fmt.Errorf("coefficient file: larger than the %d bytes accepted", MaxSetFileSize)
	}
	var f setFile
	if err := strictjson.Decode(data, &f, "coefficient file"); err != nil {
		return Set{}, err
	}
	s := Set{Name: f.Name, Source: f.Source, CacheWords: PublishedCacheWords}
	if f.P == nil {
		return Set{}, errors.New("coefficient file: field \"p\" (the processor count the coefficients are for) is missing")
	}
	s.P = *f.P
	if len(f.CacheWords) > 0 {
		c, err := count(f.CacheWords)
		if err != nil {
			return Set{}, fmt.Errorf("coefficient file: field \"cache_words\": %v", err)
		}
		s.CacheWords = c
	}
	if s.GoodR0, err = family("good", f.Good, HrHwMc); err != nil {
		return Set{}, err
	}
	if f.GoodR1 != nil {
		r1, err := family("good_r1", f.GoodR1, HrHwMc)
		if err != nil {
			return Set{}, err
		}
		s.GoodR1 = &r1
	}
	if s.Bad, err = family("bad", f.Bad, HrHwM); err != nil {
		return Set{}, err
	}
	if err := s.Validate(); err != nil {
		return Set{}, fmt.Errorf("coefficient file: %v", err)
	}
	return s, nil
}

// count reads a JSON number or a count string such as "2^19".
func count(raw json.RawMessage) (float64, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err == nil {
		if v != math.Trunc(v) {
			return 0, fmt.Errorf("%g is not a whole number of words", v)
		}
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("%s is neither a number nor a string like \"2^19\"", raw)
	}
	n, err := units.ParseCount(s)
	if err != nil {
		return 0, err
	}
	return float64(n), nil
}

// family reads one function's coefficients: every coefficient of f must be
// present and no other.
func family(field string, m map[string]json.RawMessage, f Function) (Coefficients, error) {
	if m == nil {
		return Coefficients{}, fmt.Errorf("coefficient file: field %q (%s coefficients) is missing", field, f)
	}
	want := coefficientNames(f)
	var c Coefficients
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		col := ""
		for _, w := range append([]string{"1"}, f.Columns()...) {
			if CoefficientName(w) == k {
				col = w
			}
		}
		if col == "" {
			return Coefficients{}, fmt.Errorf("coefficient file: %s.%s is not a coefficient of %s (use %s)", field, k, f, strings.Join(want, ", "))
		}
		var v float64
		if err := json.Unmarshal(m[k], &v); err != nil {
			return Coefficients{}, fmt.Errorf("coefficient file: %s.%s = %s is not a number (µs)", field, k, m[k])
		}
		_ = c.Set(col, v)
	}
	for _, w := range want {
		if _, ok := m[w]; !ok {
			return Coefficients{}, fmt.Errorf("coefficient file: %s.%s is missing (%s needs %s)", field, w, f, strings.Join(want, ", "))
		}
	}
	return c, nil
}

func coefficientNames(f Function) []string {
	var out []string
	for _, col := range append([]string{"1"}, f.Columns()...) {
		out = append(out, CoefficientName(col))
	}
	return out
}

// WriteSet writes s in the form ReadSet reads.
func WriteSet(w io.Writer, s Set) error {
	obj := func(c Coefficients, f Function) map[string]float64 {
		m := map[string]float64{}
		for _, col := range append([]string{"1"}, f.Columns()...) {
			m[CoefficientName(col)] = c.Get(col)
		}
		return m
	}
	out := struct {
		Name       string             `json:"name,omitempty"`
		Source     string             `json:"source,omitempty"`
		P          int                `json:"p"`
		CacheWords float64            `json:"cache_words"`
		Good       map[string]float64 `json:"good"`
		GoodR1     map[string]float64 `json:"good_r1,omitempty"`
		Bad        map[string]float64 `json:"bad"`
	}{Name: s.Name, Source: s.Source, P: s.P, CacheWords: s.CacheWords, Good: obj(s.GoodR0, HrHwMc), Bad: obj(s.Bad, HrHwM)}
	if s.GoodR1 != nil {
		out.GoodR1 = obj(*s.GoodR1, HrHwMc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// SameSet reports whether two sets have the same coefficients, p and C.
func SameSet(a, b Set) bool {
	if a.P != b.P || a.CacheWords != b.CacheWords || a.GoodR0 != b.GoodR0 || a.Bad != b.Bad || (a.GoodR1 == nil) != (b.GoodR1 == nil) {
		return false
	}
	return a.GoodR1 == nil || *a.GoodR1 == *b.GoodR1
}

// MaxCoefficientText bounds a typed coefficient list; the longest, HrHwM-c
// with six coefficients, is under 100 characters.
const MaxCoefficientText = 1000

// ParseCoefficients reads a typed list of f's coefficients in µs, "L=140,
// g_hrc=0.0184, g_hrm=0, g_hwc=0.0087, g_hwm=0, g_M=0.00005" (":" may stand
// for "="). Every coefficient of f must be given once and no other.
func ParseCoefficients(f Function, s string) (Coefficients, error) {
	want := coefficientNames(f)
	if len(s) > MaxCoefficientText {
		return Coefficients{}, fmt.Errorf("%d characters; at most %d are read", len(s), MaxCoefficientText)
	}
	var c Coefficients
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, "=")
		if !ok {
			name, value, ok = strings.Cut(part, ":")
		}
		name = strings.TrimSpace(name)
		if !ok {
			return Coefficients{}, fmt.Errorf("%q: write name=value, e.g. %s=0.01", part, want[1])
		}
		col := ""
		for _, w := range append([]string{"1"}, f.Columns()...) {
			if CoefficientName(w) == name {
				col = w
			}
		}
		if col == "" {
			return Coefficients{}, fmt.Errorf("%q is not a coefficient of %s (use %s)", name, f, strings.Join(want, ", "))
		}
		if seen[name] {
			return Coefficients{}, fmt.Errorf("%s is given twice", name)
		}
		seen[name] = true
		v, err := units.ParseNumber(strings.TrimSpace(value))
		if err != nil {
			return Coefficients{}, fmt.Errorf("%s: %v", name, err)
		}
		_ = c.Set(col, v)
	}
	var missing []string
	for _, w := range want {
		if !seen[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		return Coefficients{}, fmt.Errorf("%s missing (%s needs %s)", strings.Join(missing, ", "), f, strings.Join(want, ", "))
	}
	return c, c.Validate(f)
}

// FieldCoefficients writes f's coefficients for a form field: each with
// the fewest significant digits (4 to 6) that read back to it, else 6, so
// a fitted 72.10893427153104 shows as 72.1089, not with seventeen digits.
func FieldCoefficients(f Function, c Coefficients) string {
	var parts []string
	for _, col := range append([]string{"1"}, f.Columns()...) {
		parts = append(parts, CoefficientName(col)+"="+units.FieldNumber(c.Get(col)))
	}
	return strings.Join(parts, ", ")
}

// FormatCoefficients writes f's coefficients in the form ParseCoefficients
// reads, with the shortest text that reads back to the same values.
func FormatCoefficients(f Function, c Coefficients) string {
	var parts []string
	for _, col := range append([]string{"1"}, f.Columns()...) {
		parts = append(parts, CoefficientName(col)+"="+strconv.FormatFloat(c.Get(col), 'g', -1, 64))
	}
	return strings.Join(parts, ", ")
}
