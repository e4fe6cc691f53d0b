package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFitBuiltinJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"fit", "--data", "chittor-table6", "--y", "T",
		"--terms", "1, N/P*log2(P)^2, P*log2(P), P, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2",
		"--train", "N<=512 && P<=16", "--weight", "abs", "--json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		Coefficients map[string]float64
		Weighting    string
		Train, Test  struct {
			N           int
			SE          float64 `json:"s_e"`
			D, R2       *float64
			MedianRel   float64 `json:"median_rel_error"`
			Predictions []struct{ Measured, Predicted float64 }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// Eq. 14 of Chittor's thesis prints 14773 for the constant.
	if c := r.Coefficients["1"]; math.Abs(c-14773) > 0.5 {
		t.Errorf("constant = %g, want 14773", c)
	}
	if r.Weighting != "abs" || r.Train.N != 34 || r.Test.N != 51 || len(r.Test.Predictions) != 51 || r.Train.D == nil {
		t.Errorf("weighting %s, train n %d, test n %d, %d test predictions", r.Weighting, r.Train.N, r.Test.N, len(r.Test.Predictions))
	}
}

func TestFitCSVText(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "m.csv")
	// time_ms = 2 + 3·n exactly, stored in seconds after import.
	os.WriteFile(f, []byte("n,time_ms\n1,5\n2,8\n3,11\n4,14\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"fit", "--data", f, "--y", "time", "--terms", "1, n", "--weight", "abs"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "0.002") || !strings.Contains(out.String(), "0.003") {
		t.Errorf("output lacks the coefficients 0.002 s and 0.003 s:\n%s", out.String())
	}
}

func TestFitErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("n,t\n1,5\n2,abc\n3,11\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--data", "chittor-table6", "--y", "T"}, "required"},
		{[]string{"--data", "chittor-table6", "--y", "T", "--terms", "1, log2(P"}, "term 2, col 7: expected ')'"},
		{[]string{"--data", "chittor-table6", "--y", "T", "--terms", "1, P", "--train", "N <= 512 &&"}, "--train: col 12"},
		{[]string{"--data", "chittor-table6", "--y", "X", "--terms", "1"}, `no column "X"`},
		{[]string{"--data", "chittor-table6", "--y", "T", "--terms", "1, P, 2*P"}, "linearly dependent"},
		{[]string{"--data", "nosuch", "--y", "T", "--terms", "1"}, "no built-in data set"},
		{[]string{"--data", bad, "--y", "t", "--terms", "1, n"}, "line 3, column 2 (t)"},
		{[]string{"--data", "chittor-table6", "--y", "T", "--terms", "1, N, P", "--train", "N == 8 && P == 1"}, "fewer points than terms"},
		{[]string{"--data", "chittor-table6", "--y", "T", "--terms", "1", "--weight", "x"}, "--weight"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"fit"}, c.args...), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
	// With --keep-good-rows the bad row is skipped and named.
	var out, errb bytes.Buffer
	if code := run([]string{"fit", "--data", bad, "--y", "t", "--terms", "1, n", "--keep-good-rows"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "line 3") {
		t.Errorf("--keep-good-rows: exit %d, stderr %q", code, errb.String())
	}
}
