package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuperstepsText: radix sort, n = 80000, p = 8, the superstep paper's coefficients
// (Tables 2 and 4, p = 8; every superstep in R0 since h <= 2^19).
// SS1 (10000; 64; 80512): t_g = 140 + 0.0184·10000 + 0.0087·64 +
// 0.00005·80512 = 328.5824 µs; t_b = 16566 + 0.4612·10000 + 0.7708·64 +
// 0.1113·80512 = 30188.3168 µs.
// SS2, SS3 (64; 64; 1024): t_g = 141.7856 µs.
// SS4 (10064; 10000; 160512): t_g = 140 + 185.1776 + 87 + 8.0256 = 420.2032.
// Total, six passes: 6·(328.5824 + 2·141.7856 + 420.2032) = 6194.1408 µs.
func TestSuperstepsText(t *testing.T) {
	out, errs, st := runCLI("supersteps", "--algo", "radix", "--n", "80000", "--p", "8")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	for _, want := range []string{
		"Radix sort (the superstep paper, Table 9), n = 80000, p = 8",
		"1   count elts     6  10000     64   80512      R0  328.6 µs  30.19 ms",
		"2   prefix sum     6     64     64    1024      R0  141.8 µs",
		"4    move elts     6  10064  10000  160512      R0  420.2 µs",
		"total                                      6.194 ms",
		"6 passes of 6 bits",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestSuperstepsJSON: column sort, n = 60000, p = 12, each superstep
// (5000; 5000; 120000) measured at 2 ms. By hand (Tables 2 and 4, p = 12):
// t_g = 279 + 0.0183·5000 + 0.0087·5000 + 0.00004·120000 = 418.8 µs,
// t_b = 16555 + 0.2429·5000 + 0.5755·5000 + 0.1697·120000 = 41011 µs;
// Loc = 1 − (2000 − 418.8)/(41011 − 418.8) = 0.96104669...,
// M/G = 2000/418.8 = 4.7755492...; totals 2094 µs and 205055 µs.
func TestSuperstepsJSON(t *testing.T) {
	out, errs, st := runCLI("supersteps", "--algo", "column", "--n", "60000", "--p", "12", "--measured", "2ms,2ms,2ms,2ms,2ms", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var got jsonSupersteps
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	approx := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if len(got.Steps) != 5 || !approx(got.Good, 2094e-6) || !approx(got.Bad, 205055e-6) || !got.TotalSummed {
		t.Fatalf("%+v", got)
	}
	s := got.Steps[2]
	if s.Name != "sort/rev-transp" || s.Hr != 5000 || s.M != 120000 || !approx(s.Good, 418.8e-6) || !approx(s.Bad, 41011e-6) {
		t.Errorf("superstep 3: %+v", s)
	}
	if s.Measured == nil || s.Measured.Loc == nil || !approx(*s.Measured.Loc, 1-1581.2/40592.2) || !approx(*s.Measured.MG, 2000/418.8) {
		t.Errorf("superstep 3 measured: %+v", s.Measured)
	}
	if len(s.GoodTerms) != 6 || s.GoodTerms[1].Coefficient != "g_hrc" || !approx(s.GoodTerms[1].Seconds, 91.5e-6) {
		t.Errorf("Good terms: %+v", s.GoodTerms)
	}
}

// TestSuperstepsCoefFile: a coefficient file for p = 3 (a count the paper
// has no table for) with one Good function: sample sort, n = 3000.
// SS5 (1000; 1000; 6000): t_g = 10 + 0.02·1000 + 0.01·1000 + 0.001·6000 =
// 46 µs; t_b = 1000 + 0.5·1000 + 1·1000 + 0.1·6000 = 3100 µs.
// Measured total 10 ms against sums computed in the output.
func TestSuperstepsCoefFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p3.json")
	os.WriteFile(path, []byte(`{"name": "mine", "p": 3, "good": {"L": 10, "g_hrc": 0.02, "g_hrm": 0.05, "g_hwc": 0.01, "g_hwm": 0.04, "g_M": 0.001}, "bad": {"L": 1000, "g_hr": 0.5, "g_hw": 1, "g_M": 0.1}}`), 0o644)
	out, errs, st := runCLI("supersteps", "--algo", "sample", "--n", "3000", "--coef", path, "--measured-total", "10ms", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var got jsonSupersteps
	json.Unmarshal([]byte(out), &got)
	if got.P != 3 || got.Coefficients != "mine" || math.Abs(got.Steps[4].Good-46e-6) > 1e-15 || math.Abs(got.Steps[4].Bad-3100e-6) > 1e-15 {
		t.Fatalf("%+v", got)
	}
	if got.Measured == nil || got.TotalSummed || math.Abs(*got.Measured.MG-10e-3/got.Good) > 1e-9 {
		t.Errorf("total: %+v", got.Measured)
	}
	_, errs, st = runCLI("supersteps", "--algo", "sample", "--n", "3000", "--p", "4", "--coef", path)
	if st != 2 || !strings.Contains(errs, "--p: the coefficient file") {
		t.Errorf("p mismatch: status %d, %q", st, errs)
	}
}

func TestSuperstepsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--n", "10", "--p", "2"}, `--algo: "" is not an algorithm`},
		{[]string{"--algo", "bubble", "--n", "10", "--p", "2"}, `--algo: "bubble" is not an algorithm`},
		{[]string{"--algo", "radix", "--p", "2"}, "--n: give the number of elements"},
		{[]string{"--algo", "radix", "--n", "ten", "--p", "2"}, "--n:"},
		{[]string{"--algo", "radix", "--n", "1.5", "--p", "2"}, "--n:"},
		{[]string{"--algo", "radix", "--n", "1", "--p", "2"}, "--n: n = 1"},
		{[]string{"--algo", "radix", "--n", "2^41", "--p", "2"}, "--n: n = 2199023255552"},
		{[]string{"--algo", "radix", "--n", "100"}, "--p: give the number of processors"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "0"}, "--p: 0 processors"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "3"}, "--p: p = 3: the superstep paper gives coefficients for p = 2, 4, 8 and 12 only"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "2", "--radix-bits", "40"}, "--radix-bits: radix bits r = 40"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "2", "--key-bits", "0"}, "--key-bits, --radix-bits and --oversample must be at least 1"},
		{[]string{"--algo", "sample", "--n", "100", "--p", "2", "--oversample", "-1"}, "--oversample: oversampling = -1"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "2", "--coef", "nosuch.json"}, "--coef: open nosuch.json"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured", "1ms,2ms,3ms,4ms,5ms"}, "--measured: 5 times given but the sort has 4 supersteps"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured", "1ms,soon"}, "--measured: superstep 2:"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured", "-1ms"}, "--measured: superstep 1: -1ms; accepted 0 to 1e+07 s"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured-total", "NaN"}, "--measured-total:"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured-total", "-2s"}, "--measured-total: -2s; accepted 0 to 1e+07 s"},
		{[]string{"--algo", "radix", "--n", "1e6", "--p", "2", "--measured-total", "1e308s"}, "memwall supersteps: --measured-total: 1e308s; accepted 0 to 1e+07 s\n"},
		{[]string{"--algo", "radix", "--n", "100", "--p", "2", "stray"}, `unexpected argument "stray"`},
	} {
		_, errs, st := runCLI(append([]string{"supersteps"}, c.args...)...)
		if st != 2 || !strings.Contains(errs, "memwall supersteps: ") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, st, errs, c.want)
		}
	}
}

// FuzzSuperstepsArgs: whatever n, p and measured times, the command never
// panics and never prints NaN or Inf; a failure is status 2 with a message.
func FuzzSuperstepsArgs(f *testing.F) {
	f.Add("radix", "80000", "8", "1ms,-,,2ms", "")
	f.Add("sample", "1000", "2", "1e999", "5ms")
	f.Add("column", "2^40", "12", "0,0,0,0,0", "0")
	f.Add("column", "10", "4", "", "1e-300")
	f.Fuzz(func(t *testing.T, algo, n, p, measured, total string) {
		for _, asJSON := range []bool{false, true} {
			args := []string{"supersteps", "--algo", algo, "--n", n, "--p", p, "--measured", measured}
			if total != "" {
				args = append(args, "--measured-total", total)
			}
			if asJSON {
				args = append(args, "--json")
			}
			out, errs, st := runCLI(args...)
			if strings.Contains(errs, "internal error") {
				t.Fatalf("%v: %s", args, errs)
			}
			if st == 0 && (strings.Contains(out, "NaN") || strings.Contains(out, "Inf")) {
				t.Fatalf("%v printed %s", args, out)
			}
			if st != 0 && (st != 2 || errs == "") {
				t.Fatalf("%v: status %d without a message", args, st)
			}
		}
	})
}
