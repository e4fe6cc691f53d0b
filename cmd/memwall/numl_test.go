package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/numl"
	"memwall/measure"
)

// TestNUMLLines: the lines-touched paper's section 3.1 — one column of 4-byte integers from
// a 1024×1024 array with 64-byte lines touches one line per row, 1024,
// where a row of the same 4096 bytes touches 64. At offset 62 each element
// straddles two lines (bytes 62..65), the maximum over offsets: 2048.
func TestNUMLLines(t *testing.T) {
	out, errs, st := runCLI("numl", "--cols", "-W", "4KiB", "-k", "1", "-w", "4", "-r", "2^10", "-L", "64", "-o", "62", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var got numlLinesOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.U != 2048 || got.Min != 1024 || got.Max != 2048 || got.MaxAt != 61 || got.Bytes != 4096 || got.Period != 1 || !got.ClosedApplies || got.ClosedMin != 1024 || got.ClosedMax != 2048 {
		t.Errorf("%+v", got)
	}
	out, _, st = runCLI("numl", "lines", "--rows", "-W", "4096", "-k", "1")
	if st != 0 || !strings.Contains(out, "lines touched: u = 64") || !strings.Contains(out, "min 64 (o = 0), max 65 (o = 1)") {
		t.Errorf("status %d\n%s", st, out)
	}
	// 3 rows of 100 bytes from offset 60: bytes 60..359 span lines 0..5.
	out, _, _ = runCLI("numl", "--rows", "-W", "100", "-k", "3", "-o", "60")
	if !strings.Contains(out, "u = 6\n") || !strings.Contains(out, "eqs. 3, 4): 5 .. 6") {
		t.Errorf("%s", out)
	}
}

// TestNUMLConv: on a 2×2 mesh of 4×4 blocks with only a per-message cost,
// Conv-Shift sends 2(b − 1) messages and Conv-Scan 5, so the crossover is
// b = 4 (6 > 5); the standard model with the same message cost agrees.
func TestNUMLConv(t *testing.T) {
	out, errs, st := runCLI("numl", "conv", "-N", "8", "--pr", "2", "--pc", "2", "-L", "16", "--bmax", "4", "--std", "alpha=1ms", "--m1", "alpha=1ms", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var got convOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.CrossS1 == nil || *got.CrossS1 != 4 || got.CrossM1 == nil || *got.CrossM1 != 4 || len(got.Points) != 4 {
		t.Fatalf("%s", out)
	}
	if p := got.Points[3]; p.ShiftM1 != 6e-3 || p.ScanM1 != 5e-3 || p.FasterM1 != "scan" {
		t.Errorf("b = 4: %+v", p)
	}
	out, _, st = runCLI("numl", "conv")
	if st != 0 || !strings.Contains(out, "crossover, M1:") || !strings.Contains(out, "illustrative") {
		t.Errorf("defaults: %d\n%s", st, out)
	}
}

func TestNUMLErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"numl", "-W", "100"}, "--rows or --cols"},
		{[]string{"numl", "--rows", "--cols", "-W", "100"}, "--rows or --cols"},
		{[]string{"numl", "--rows"}, "-W:"},
		{[]string{"numl", "--rows", "-W", "lots"}, "-W:"},
		{[]string{"numl", "--cols", "-W", "100", "-k", "1"}, "-r is required"},
		{[]string{"numl", "--cols", "-W", "100", "-k", "30", "-r", "4"}, "-k: "},
		{[]string{"numl", "--cols", "-W", "100", "-r", "4", "-L", "0"}, "-L: "},
		{[]string{"numl", "--rows", "-W", "100", "-o", "64"}, "-o: "},
		{[]string{"numl", "--rows", "-W", "2^40", "-k", "2^30"}, "-k: "},
		{[]string{"numl", "--rows", "-W", "100", "-x"}, "flag provided but not defined: -x"},
		{[]string{"numl", "conv", "--pr", "0"}, "-pr: "},
		{[]string{"numl", "conv", "-N", "16", "--pr", "4", "--pc", "4", "--bmax", "10"}, "-bmax: "},
		{[]string{"numl", "conv", "--m1", "alpha=soon"}, "--m1: alpha: "},
		{[]string{"numl", "conv", "--std", "gamma=1ns"}, "--std: the standard model has no lines-touched terms"},
	} {
		_, errs, st := runCLI(c.args...)
		if st != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, %q; want %q", c.args, st, errs, c.want)
		}
	}
}

// TestNUMLMeasure runs the quick plan with a small flush and reads the CSV
// and the data set back with engine/dataset: the columns are the ones
// engine/fit and numl.FitSets take, time_us arrives as seconds, and every
// row's u is the engine's count for its shape.
func TestNUMLMeasure(t *testing.T) {
	out, errs, st := runCLI("numl", "measure", "--quick", "--reps", "2", "--flush", "256KiB", "-L", "64")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	tbl, _, err := dataset.Read(strings.NewReader(out), dataset.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(measure.PlanNUML(64, true)) != tbl.Len() {
		t.Errorf("%d rows, the quick plan has %d shapes", tbl.Len(), len(measure.PlanNUML(64, true)))
	}
	col := func(name string) []float64 {
		v, ok := tbl.Column(name)
		if !ok {
			t.Fatalf("no column %s in %v", name, tbl.Names())
		}
		return v
	}
	ts, kinds := col("time"), tbl.Col("kind")
	if c := tbl.Col("time"); c.Kind != dataset.Duration {
		t.Errorf("time column is %v, want a duration", c.Kind)
	}
	W, k, w, r, o, u := col("W"), col("k"), col("w"), col("r"), col("o"), col("u")
	for i := range ts {
		if !(ts[i] > 0 && ts[i] < 1) {
			t.Errorf("row %d: time %g s", i, ts[i])
		}
		s := numl.Shape{W: int64(W[i]), K: int64(k[i]), Line: 64, Offset: int64(o[i])}
		if kinds.Strings[i] == "columns" {
			s.Kind, s.Elem, s.R = numl.Columns, int64(w[i]), int64(r[i])
		}
		if want, err := numl.Lines(s); err != nil || float64(want) != u[i] {
			t.Errorf("row %d: u = %g, engine %d (%v)", i, u[i], want, err)
		}
	}
	if _, err := numl.FitSets(tbl, "time", fit.Cond{}, []string{numl.S1, numl.M1}); err != nil {
		t.Errorf("the table does not fit: %v", err)
	}

	// The data set form carries the title, a source naming the command and
	// the date, and the time column's unit.
	var buf strings.Builder
	run := &measure.NUMLRun{Line: 64, Reps: 3, FlushBytes: 1 << 20, OS: measure.OSInfo{CPU: "Test CPU"},
		Points: []measure.NUMLPoint{{Kind: "rows", M: 1, N: 128, U: 2, W: 64, K: 2, Line: 64, Seconds: measure.Stat{Median: 1.5e-6}}}}
	if err := writeNUMLDataset(&buf, run, "T", "the test box", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	tbl, _, err = dataset.ReadJSON(strings.NewReader(buf.String()), dataset.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if tbl.Title != "T" || !strings.Contains(tbl.Source, "memwall numl measure on the test box (Test CPU), 2026-11-22") {
		t.Errorf("title %q, source %q", tbl.Title, tbl.Source)
	}
	if ts, _ := tbl.Column("time"); len(ts) != 1 || ts[0] != 1.5e-6 {
		t.Errorf("time %v, want 1.5 µs in seconds", ts)
	}
}

func TestNUMLMeasureErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"numl", "measure", "--reps", "-1"}, "--reps:"},
		{[]string{"numl", "measure", "--flush", "lots"}, "--flush:"},
		{[]string{"numl", "measure", "-m", "0"}, "-m:"},
		{[]string{"numl", "measure", "-L", "48", "--flush", "0"}, "-L: a power of two from 8 to 4096 bytes"},
		{[]string{"numl", "measure", "extra"}, "unexpected argument"},
	} {
		_, errs, st := runCLI(c.args...)
		if st != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, %q; want %q", c.args, st, errs, c.want)
		}
	}
}
