package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/dataset"
	"memwall/engine/superstep"
)

// TestSuperstepSuitesCSV runs Suite 1 at a thousandth of the paper's
// counts on two processors and reads the CSV back as memwall fit does.
// Suite 1 on p = 2 (the superstep paper's section 4.1): for each of the 30 counts, x = 1
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

// TestSuperstepFitRecovers writes Suites 1–3 for p = 2 timed exactly by
// known coefficients (Good: HrHwM-c with R0 and R1 apart, C = 2^19 words;
// Bad: HrHwM), fits them with superstep-fit and reads the coefficient file
// back: least squares on exact data must return the generating
// coefficients, with g_hrm = g_hwm = 0 in R0 where h_rm = h_wm = 0.
func TestSuperstepFitRecovers(t *testing.T) {
	const cw = 1 << 19
	r0 := superstep.Coefficients{L: 50, Ghrc: 0.002, Ghwc: 0.003, GM: 0.0005}
	r1 := superstep.Coefficients{L: 100, Ghrc: 0.002, Ghrm: 0.004, Ghwc: 0.003, Ghwm: 0.006, GM: 0.0005}
	bad := superstep.Coefficients{L: 200, Ghr: 0.02, Ghw: 0.03, GM: 0.001}
	var b strings.Builder
	b.WriteString(strings.Join(superstepColumns, ",") + "\n")
	for suite := 1; suite <= 3; suite++ {
		exps, err := superstep.Suite(suite, 2, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exps {
			c, _ := e.Superstep.Counts()
			x := c.Features(cw)
			coef := r0
			if x.H > cw {
				coef = r1
			}
			tg, _ := superstep.HrHwMc.Eval(coef, x)
			tb, _ := superstep.HrHwM.Eval(bad, x)
			for mode, tm := range map[string]float64{"good": tg, "bad": tb} {
				isBad := map[string]int{"good": 0, "bad": 1}[mode]
				fmt.Fprintf(&b, "%d,%s,%d,%s,2,%d,%d,%g,%g,%g,%g,%g,%g,%g,%g,%.17g,0\n", suite, mode, isBad, e.Pattern, e.X, e.H,
					x.Hr, x.Hw, x.H, x.M, x.Hrc, x.Hrm, x.Hwc, x.Hwm, tm)
			}
		}
	}
	dir := t.TempDir()
	data, coef := filepath.Join(dir, "s.csv"), filepath.Join(dir, "c.json")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, st := runCLI("superstep-fit", "--data", data, "--coef-out", coef)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	if !strings.Contains(out, "C = 524288 words") || !strings.Contains(out, "HrHwM-c") {
		t.Errorf("output:\n%s", out)
	}
	f, err := os.Open(coef)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := superstep.ReadSet(f)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want superstep.Coefficients) {
		for _, col := range []string{"1", "h_r", "h_w", "M", "h_rc", "h_rm", "h_wc", "h_wm"} {
			g, w := got.Get(col), want.Get(col)
			if math.Abs(g-w) > 1e-6*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %s: %g, want %g", what, superstep.CoefficientName(col), g, w)
			}
		}
	}
	if set.P != 2 || set.CacheWords != cw || set.GoodR1 == nil {
		t.Fatalf("set %+v", set)
	}
	near("good R0", set.GoodR0, r0)
	near("good R1", *set.GoodR1, r1)
	near("bad", set.Bad, bad)
}

func TestSuperstepFitBadInput(t *testing.T) {
	dir := t.TempDir()
	noTime := filepath.Join(dir, "a.csv")
	os.WriteFile(noTime, []byte("suite,bad,p,h_r,h_w,M,h_rc,h_rm,h_wc,h_wm\n1,0,2,5,5,10,5,0,5,0\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "--data is required"},
		{[]string{"--data", filepath.Join(dir, "none.csv")}, "--data:"},
		{[]string{"--data", noTime}, `no numeric column "time"`},
		{[]string{"--data", noTime, "--weight", "auto"}, "--weight:"},
	}
	for _, tc := range tests {
		_, errs, st := runCLI(append([]string{"superstep-fit"}, tc.args...)...)
		if st != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", tc.args, st, errs, tc.want)
		}
	}
}

// TestAccessCounts: --h paper is the superstep paper's 30 counts, and so is
// --h seed, what earlier versions called it.
func TestAccessCounts(t *testing.T) {
	want := superstep.SuiteSizes()
	for _, h := range []string{"paper", "seed"} {
		got, err := accessCounts(h)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) || len(got) != 30 {
			t.Errorf("--h %s: %v %v", h, got, err)
		}
	}
	if got, err := accessCounts("8Ki, 2^20"); err != nil || fmt.Sprint(got) != "[8192 1048576]" {
		t.Errorf("--h 8Ki, 2^20: %v %v", got, err)
	}
}
