package main

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/dataset"
)

// TestSuperstepSuitesCSV runs Suite 1 at a thousandth of the seed's
// counts on two processors and reads the CSV back as memwall fit does.
// Suite 1 on p = 2 (seed 003 section 4.1): for each of the 30 counts, x = 1
// gives three patterns and x = 2 one, in two modes: 240 rows. like-gather
// with x = 1 reads h on one processor and writes h·1/2 on both (rounded to
// the nearest whole access), so h_r = h_set, h_w = round(h_set/2),
// M = h_set + 2·round(h_set/2).
func TestSuperstepSuitesCSV(t *testing.T) {
	out, errs, st := runCLI("superstep-suites", "--p", "2", "--suites", "1", "--scale", "0.001", "--reps", "1", "--line", "64B")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	tbl, bad, err := dataset.ReadCSV(strings.NewReader(out), dataset.Options{})
	if err != nil || len(bad) > 0 {
		t.Fatalf("reading the CSV: %v %v", err, bad)
	}
	if tbl.Len() != 240 {
		t.Fatalf("%d rows, want 240", tbl.Len())
	}
	col := func(name string) []float64 {
		c, ok := tbl.Column(name)
		if !ok {
			t.Fatalf("no numeric column %q", name)
		}
		return c
	}
	hset, hr, hw, m, tm := col("h_set"), col("h_r"), col("h_w"), col("M"), col("time") // time_us, read in seconds
	pc := tbl.Col("pattern")
	if pc == nil || pc.Strings == nil {
		t.Fatal("no text column pattern")
	}
	pat := pc.Strings
	gathers := 0
	for i := range hset {
		if !(tm[i] > 0) {
			t.Errorf("row %d: time %g", i, tm[i])
		}
		if pat[i] == "like-gather" {
			gathers++
			half := math.Round(hset[i] / 2)
			if hr[i] != hset[i] || hw[i] != half || m[i] != hset[i]+2*half {
				t.Errorf("row %d: h_set %g h_r %g h_w %g M %g", i, hset[i], hr[i], hw[i], m[i])
			}
		}
	}
	if gathers != 60 {
		t.Errorf("%d like-gather rows, want 60", gathers)
	}
}

func TestSuperstepSuitesBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--p", "0"}, "--p:"},
		{[]string{"--p", "two"}, "--p:"},
		{[]string{"--suites", "5"}, "--suites:"},
		{[]string{"--modes", "good,ugly"}, "--modes:"},
		{[]string{"--scale", "2"}, "--scale:"},
		{[]string{"--h", "lots"}, "--h:"},
		{[]string{"--h", "2^31"}, "--h:"},
		{[]string{"--line", "2B"}, "--line:"},
		{[]string{"--flush", "-1"}, "--flush:"},
		{[]string{"--reps", "0"}, "--reps:"},
		{[]string{"extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		_, errs, st := runCLI(append([]string{"superstep-suites"}, tc.args...)...)
		if st != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", tc.args, st, errs, tc.want)
		}
	}
}
