package units

import (
	"errors"
	"math"
	"testing"
)

func TestParseCount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"8388608", 8388608},
		{"8Mi", 8 << 20},
		{"8 Mi", 8 << 20},
		{"8M", 8000000},
		{"2^23", 1 << 23},
		{"2^0", 1},
		{"1e6", 1000000},
		{"1.5Ki", 1536},
		{"4k", 4000},
		{" 64 ", 64},
		{"0", 0},
		{"2^53", 1 << 53},
	} {
		got, err := ParseCount(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty value"},
		{"1.5", `"1.5" is not a whole number`},
		// rounds to the float64 1, but is not whole as written
		{"1.0000000000000001", `"1.0000000000000001" is not a whole number`},
		{"2.00000000000000001Ki", `"2.00000000000000001Ki" is not a whole number`},
		{"-3", `"-3" is negative`},
		{"2^54", `"2^54" is too large (at most 2^53)`},
		{"1e300", `"1e300" is too large (at most 2^53)`},
		{"8MB", `"8MB": unknown multiplier "MB" (use k, M, G, Ki, Mi, Gi or 2^n)`},
		{"abc", `"abc" does not start with a number`},
		{"2^x", `"2^x" is not a power like 2^23`},
		{"NaN", `"NaN" does not start with a number`},
		{"Inf", `"Inf" does not start with a number`},
		{"1e", `"1e": unknown multiplier "e" (use k, M, G, Ki, Mi, Gi or 2^n)`},
	} {
		_, err := ParseCount(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseCount(%q) error %v; want %q", c.in, err, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"262144", 262144},
		{"256KiB", 256 << 10},
		{"256 KiB", 256 << 10},
		{"256 KB", 256000}, // decimal: the package convention
		{"256kB", 256000},
		{"8Mi", 8 << 20},
		{"8MiB", 8 << 20},
		{"2^23", 1 << 23},
		{"128 B", 128},
		{"128B", 128},
		{"64 bytes", 64},
		{"1.5 GiB", 3 << 29},
	} {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"12 furlongs", `"12 furlongs": unknown size unit "furlongs" (use B, KB, KiB, MB, MiB, GB, GiB)`},
		{"0.5B", `"0.5B" is not a whole number`},
		{"16 EiB", `"16 EiB": unknown size unit "EiB" (use B, KB, KiB, MB, MiB, GB, GiB)`},
	} {
		_, err := ParseSize(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseSize(%q) error %v; want %q", c.in, err, c.want)
		}
	}
}

func TestParseBandwidth(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"2.12GB/s", 2.12e9},
		{"2.12 GB/s", 2.12e9},
		{"1.06 GiB/s", 1.06 * (1 << 30)},
		{"850MB/s", 850e6},
		{"850 MB/sec", 850e6},
		{"1e9", 1e9},
		{"1e9 B/s", 1e9},
	} {
		got, err := ParseBandwidth(c.in)
		if err != nil || math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("ParseBandwidth(%q) = %g, %v; want %g", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"2 GHz", `"2 GHz": unknown bandwidth unit "GHz" (use B/s, MB/s, GB/s, MiB/s, GiB/s)`},
		{"fast", `"fast" does not start with a number`},
	} {
		_, err := ParseBandwidth(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseBandwidth(%q) error %v; want %q", c.in, err, c.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"7.52ns", 7.52e-9},
		{"11.76 ns", 11.76e-9},
		{"1.5ms", 1.5e-3},
		{"3 us", 3e-6},
		{"3 µs", 3e-6},
		{"2 s", 2},
		{"0.04", 0.04},
	} {
		got, err := ParseDuration(c.in)
		if err != nil || math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("ParseDuration(%q) = %g, %v; want %g", c.in, got, err, c.want)
		}
	}
	if _, err := ParseDuration("5 fortnights"); err == nil || err.Error() != `"5 fortnights": unknown time unit "fortnights" (use s, ms, us, µs, ns)` {
		t.Errorf("error %v", err)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatSize(262144), "256 KiB"},
		{FormatSize(128), "128 B"},
		{FormatSize(1000), "1000 B"},
		{FormatSize(3 << 29), "1.5 GiB"},
		{FormatCount(8 << 20), "8Mi"},
		{FormatCount(1000000), "1000000"},
		{FormatCount(1536), "1536"},
		{FormatBandwidth(2.12e9), "2.12 GB/s"},
		{FormatBandwidth(850e6), "850 MB/s"},
		{FormatSeconds(7.52e-9), "7.52 ns"},
		{FormatSeconds(1.5143), "1.514 s"},
		{FormatSeconds(0.3799), "379.9 ms"},
		{FormatSeconds(0), "0 s"},
		{FormatSeconds(math.NaN()), "—"},
		{FormatFrequency(133e6), "133 MHz"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestRoundTrip: what FormatSize and FormatCount write, the parsers read back.
func TestRoundTrip(t *testing.T) {
	for _, n := range []int64{1, 64, 1024, 262144, 8 << 20, 1 << 40, 3 << 29} {
		if got, err := ParseSize(FormatSize(n)); err != nil || got != n {
			t.Errorf("size %d -> %q -> %d %v", n, FormatSize(n), got, err)
		}
		if got, err := ParseCount(FormatCount(n)); err != nil || got != n {
			t.Errorf("count %d -> %q -> %d %v", n, FormatCount(n), got, err)
		}
	}
}

// The fuzzers check the parsers' contract: no panic; on success a finite,
// non-negative value for counts and sizes.
func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"8Mi", "2^23", "1e6", "8M", "-1", "1.5", "2^99999", "9e99999", "0x10", "1e-5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseCount(s); err == nil && (v < 0 || v > maxExactInt) {
			t.Fatalf("ParseCount(%q) = %d", s, v)
		}
		if v, err := ParseSize(s); err == nil && (v < 0 || v > maxExactInt) {
			t.Fatalf("ParseSize(%q) = %d", s, v)
		}
	})
}

func FuzzParseReal(f *testing.F) {
	for _, s := range []string{"2.12GB/s", "7.52ns", "1e308 GB/s", "-0", "1.5ms", "133MHz", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (float64, error){ParseBandwidth, ParseDuration, ParseFrequency, ParseNumber} {
			if v, err := parse(s); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("%q parsed to %v", s, v)
			}
		}
	})
}

// What a field shows parses back, with sensible digits: the values of the
// derived Pentium 4 (β2 = 128 B / (10/133 MHz + 128 B / 2.128 GB/s),
// m = 20 / 2.66 GHz) and a preset's 4.993 MiB cache.
func TestFieldForms(t *testing.T) {
	beta2 := 128 / (10/133e6 + 128/2.128e9)
	m := 20 / 2.66e9
	for _, c := range []struct {
		got, want string
	}{
		{FieldBandwidth(beta2), "945.778 MB/s"},
		{FieldBandwidth(2.128e9), "2.128 GB/s"},
		{FieldSeconds(m), "7.5188 ns"},
		{FieldSeconds(3.75e-9), "3.75 ns"},
		{FieldSize(8 << 20), "8 MiB"},
		{FieldSize(5235712), "5235712 B"}, // 4.9931640625 MiB: six digits are not exact
		{FieldSize(5 << 19), "2.5 MiB"},
		{FormatSeconds(11240), "11240 s"},
		{FormatLimit(1 << 50), "2^50"},
		{FormatCount(1 << 50), "1Pi"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	// A rounded size with a prefix is taken to the nearest byte.
	if v, err := ParseSize("10.42 MiB"); err != nil || v != 10926162 {
		t.Errorf("ParseSize(10.42 MiB) = %d, %v; want 10926162 (10.42 × 2^20 rounded)", v, err)
	}
	if _, err := ParseSize("10.5 B"); err == nil {
		t.Error("10.5 B accepted")
	}
	if _, err := ParseCount("1.5"); err == nil {
		t.Error("1.5 accepted as a count")
	}
	if _, err := ParseCount("2^70"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("2^70: %v, want ErrTooLarge", err)
	}
}

// TestFormatNumber: a display number has four significant digits; a field
// number the fewest (4 to 6) that read back, else 6.
func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		v            float64
		shown, field string
	}{
		{72.10893427153104, "72.11", "72.1089"},
		{72.11, "72.11", "72.11"},
		{0.00035, "0.00035", "0.00035"},
		{16566, "16570", "16566"},
	} {
		if got := FormatNumber(c.v); got != c.shown {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.v, got, c.shown)
		}
		if got := FieldNumber(c.v); got != c.field {
			t.Errorf("FieldNumber(%v) = %q, want %q", c.v, got, c.field)
		}
	}
}
