package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/hier"
)

type simJSON struct {
	Seconds           float64  `json:"seconds"`
	ClosedFormSeconds *float64 `json:"closed_form_seconds"`
	Terms             []struct {
		Name    string  `json:"name"`
		Seconds float64 `json:"seconds"`
		Formula string  `json:"formula"`
	} `json:"terms"`
	Counts map[string]int64 `json:"counts"`
}

func simulateJSON(t *testing.T, args ...string) simJSON {
	t.Helper()
	out, errOut, status := runCLI(append([]string{"simulate", "--json"}, args...)...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var v simJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return v
}

// Traditional permutation product, N = 16, w = 4 on the 2.66 GHz Pentium 4
// (B = 128): X, Y and Z each lie in one line. 48 accesses, 3 misses, the
// dirty Z line written back: 4 random transfers (each line starts its own
// stream) of 128 B at 0.95 GB/s = 539 ns.
func TestSimulateKernelJSON(t *testing.T) {
	v := simulateJSON(t, "--machine", "p4-2.66-ddr266", "--kernel", "perm", "--set", "n=16")
	want := map[string]int64{"accesses": 48, "misses": 3, "writebacks": 1, "branches": 0, "mispredictions": 0, "random_transfers": 4}
	for k, w := range want {
		if v.Counts[k] != w {
			t.Errorf("%s = %d, want %d", k, v.Counts[k], w)
		}
	}
	if math.Abs(v.Seconds-4*128/0.95e9) > 1e-15 {
		t.Errorf("seconds %g, want %g", v.Seconds, 4*128/0.95e9)
	}
	if v.ClosedFormSeconds == nil || *v.ClosedFormSeconds <= 0 {
		t.Error("no closed_form_seconds")
	}
	if len(v.Terms) != 3 || v.Terms[0].Name != "sequential memory traffic" || v.Terms[2].Name != "branch mispredictions" || v.Terms[1].Formula == "" {
		t.Errorf("terms %+v", v.Terms)
	}
}

func TestSimulateSortsAndPredictors(t *testing.T) {
	maj := simulateJSON(t, "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=2^12", "--seed", "3")
	two := simulateJSON(t, "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=2^12", "--seed", "3", "--predictor", "2bit")
	if maj.Counts["branches"] == 0 || maj.Counts["branches"] != two.Counts["branches"] || maj.Counts["mispredictions"] == two.Counts["mispredictions"] {
		t.Errorf("majority %v, 2bit %v", maj.Counts, two.Counts)
	}
	// Each pass of random keys mispredicts about half its comparisons.
	if r := float64(maj.Counts["mispredictions"]) / float64(maj.Counts["branches"]); r < 0.2 || r > 0.6 {
		t.Errorf("misprediction rate %g", r)
	}
}

func TestSimulateText(t *testing.T) {
	out, errOut, status := runCLI("simulate", "--machine", "p3-0.6-pc100", "--kernel", "perm-twopass", "--set", "n=8Ki")
	if status != 0 || !strings.Contains(out, "simulated:") || !strings.Contains(out, "closed form:") || !strings.Contains(out, "phase II") {
		t.Errorf("status %d\n%s\n%s", status, out, errOut)
	}
}

func TestSimulateTrace(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "t.txt")
	// Reads of lines 0 and 1 (32-byte lines on the Pentium III), a write
	// to line 0: 3 accesses, 2 misses, 1 write-back.
	os.WriteFile(plain, []byte("# test\nR 0x0 4\nR 0x20 4\nW 0 4\n"), 0o644)
	v := simulateJSON(t, "--machine", "p3-0.6-pc100", "--trace", plain)
	if v.Counts["accesses"] != 3 || v.Counts["misses"] != 2 || v.Counts["writebacks"] != 1 || v.ClosedFormSeconds != nil {
		t.Errorf("plain: %+v", v)
	}
	lackey := filepath.Join(dir, "l.txt")
	os.WriteFile(lackey, []byte("==1== Lackey\nI  0400,3\n M 1000,4\n L 1000,4\n"), 0o644)
	v = simulateJSON(t, "--machine", "p3-0.6-pc100", "--trace", lackey, "--format", "lackey")
	if v.Counts["accesses"] != 3 || v.Counts["misses"] != 1 || v.Counts["writebacks"] != 1 {
		t.Errorf("lackey: %+v", v.Counts)
	}
}

func TestSimulateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("R 0x0 4\nR 0xq 4\n"), 0o644)
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("R 0x0 4\n", 200)), 0o644)
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"--kernel", "perm"}, "--machine"},
		{[]string{"--machine", "p4-1.7-pc133"}, "exactly one"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--trace", bad}, "exactly one"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "sort"}, "unknown kernel"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--set", "n=-5"}, "n"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--set", "n=1e12"}, "--set n"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--set", "w=3"}, "--set w"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--set", "q=3"}, "unknown parameter"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--predictor", "oracle"}, "predictor"},
		{[]string{"--machine", "p4-1.7-pc133", "--kernel", "perm", "--window", "1"}, "window"},
		{[]string{"--machine", "p4-1.7-pc133", "--trace", bad}, "line 2"},
		{[]string{"--machine", "p4-1.7-pc133", "--trace", bad, "--format", "csv"}, "format"},
		{[]string{"--machine", "p4-1.7-pc133", "--trace", big, "--limit", "1KiB"}, "size limit"},
		{[]string{"--machine", "p4-1.7-pc133", "--trace", filepath.Join(dir, "missing")}, "--trace"},
		{[]string{"--machine", "p4-1.7-pc133", "--trace", bad, "--set", "n=5"}, "--set"},
	}
	for _, tc := range tests {
		out, errOut, status := runCLI(append([]string{"simulate"}, tc.args...)...)
		if status != 2 || out != "" || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", tc.args, status, errOut, tc.msg)
		}
	}
}

// TestSimulateHierarchyJSON: on a machine that gives its cache levels a
// kernel's run carries the hierarchy simulator's result, level by level;
// on the paper's machines it carries none. The permutation product of 16
// four-byte elements touches one line of each of X, Y and Z (64-byte
// lines on the Zen 4 laptop's specification): 48 accesses reach L1, three
// fill each level (the first of each array is random, nothing precedes
// it), and Z's line is written back from each at the end.
func TestSimulateHierarchyJSON(t *testing.T) {
	h := simulateHierarchy(t, "--kernel", "perm", "--set", "n=16")
	checkLevelCounts(t, h, 48, 3, 1)
	for _, l := range h.Levels {
		if l.Counts.RandFills != 3 {
			t.Errorf("%s: %d random fills, want 3", l.Level.Name, l.Counts.RandFills)
		}
	}
	if !(h.Seconds > 0) {
		t.Errorf("hierarchy time %g", h.Seconds)
	}
	out, _, _ := runCLI("simulate", "--json", "--machine", "p4-2.66-ddr266", "--kernel", "perm", "--set", "n=16")
	if strings.Contains(out, `"hierarchy"`) {
		t.Error("a machine of six numbers got a hierarchy result")
	}
}

// simulateHierarchy runs memwall simulate --json with args on the Zen 4
// laptop's specification and returns its hierarchy result, of three
// levels.
func simulateHierarchy(t *testing.T, args ...string) *hier.Result {
	t.Helper()
	out, errOut, status := runCLI(append([]string{"simulate", "--json", "--machine", "ryzen7-7840u-spec"}, args...)...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var v struct {
		Hierarchy *hier.Result `json:"hierarchy"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Hierarchy == nil || len(v.Hierarchy.Levels) != 3 {
		t.Fatalf("hierarchy %+v, want three levels", v.Hierarchy)
	}
	return v.Hierarchy
}

// checkLevelCounts holds every level to its hand count: first accesses
// reach L1, and every level misses (fills) misses lines, so the levels
// below see misses accesses; wb dirty lines are written back from each.
func checkLevelCounts(t *testing.T, h *hier.Result, first, misses, wb int64) {
	t.Helper()
	for i, l := range h.Levels {
		want := first
		if i > 0 {
			want = misses
		}
		if c := l.Counts; c.Accesses != want || c.Misses != misses || c.Writebacks != wb {
			t.Errorf("%s: %+v, want %d accesses, %d misses, %d write-backs", l.Level.Name, c, want, misses, wb)
		}
	}
}

// A trace goes through the hierarchy too. By hand: ten reads of one
// 64-byte line and a write of the next reach L1 11 times and miss it
// twice; each lower level sees those 2 misses and misses both; the
// written line is written back from every level at the end.
func TestSimulateTraceHierarchyJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.trace")
	text := strings.Repeat("R 0x1000 8\n", 10) + "W 0x1040 8\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	h := simulateHierarchy(t, "--trace", path)
	checkLevelCounts(t, h, 11, 2, 1)
	if h.Note != hier.TraceNote || h.Ops != 0 || h.Seconds != h.Memory() {
		t.Errorf("a trace's hierarchy result: note %q, %d ops, %g s against %g s of traffic", h.Note, h.Ops, h.Seconds, h.Memory())
	}
	text2, _, _ := runCLI("simulate", "--machine", "ryzen7-7840u-spec", "--trace", path)
	if !strings.Contains(text2, "hierarchy simulator") {
		t.Errorf("the text output has no hierarchy table:\n%s", text2)
	}
}

// --miss-curve: the curve at each level's size is that level's misses,
// and on a machine of the MBRAM paper's six numbers, whose simulator is
// another program (engine/sim's LRU cache of C/B lines), the curve at C/B
// lines is that simulator's misses.
func TestSimulateMissCurve(t *testing.T) {
	run := func(machineID string, args ...string) (v struct {
		Counts     map[string]int64 `json:"counts"`
		Hierarchy  *hier.Result     `json:"hierarchy"`
		MissCurves []hier.MissCurve `json:"miss_curves"`
	}) {
		t.Helper()
		out, errOut, status := runCLI(append([]string{"simulate", "--json", "--miss-curve", "--machine", machineID}, args...)...)
		if status != 0 {
			t.Fatalf("status %d: %s", status, errOut)
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.MissCurves) != 1 || len(v.MissCurves[0].Points) < 10 {
			t.Fatalf("%s: miss curves %+v, want one of many points", machineID, v.MissCurves)
		}
		return v
	}
	v := run("ryzen7-7840u-spec", "--kernel", "quicksort", "--set", "n=2^14")
	c := v.MissCurves[0]
	for _, l := range v.Hierarchy.Levels {
		if got, ok := c.At(l.Level.Size / l.Level.Line); !ok || got != l.Counts.Misses {
			t.Errorf("%s: the curve gives %d (%v), the level %d misses", l.Level.Name, got, ok, l.Counts.Misses)
		}
	}
	for _, k := range []string{"quicksort", "heapsort", "perm"} {
		// 2^17 four-byte keys: 512 KiB, twice the cache.
		v := run("p4-1.7-pc133", "--kernel", k, "--set", "n=2^17")
		if v.Hierarchy != nil {
			t.Errorf("%s: a six-number machine's run shows a hierarchy", k)
		}
		c := v.MissCurves[0]
		if got, ok := c.At((256 << 10) / 128); !ok || got != v.Counts["misses"] || got <= c.Cold {
			t.Errorf("%s: the curve at 256 KiB of 128-byte lines gives %d (%v), the MBRAM simulator %d misses (%d of them first accesses)", k, got, ok, v.Counts["misses"], c.Cold)
		}
	}
	// A Simulate link with the box ticked asks for the curve too.
	out, errOut, status := runCLI("simulate", "--json", "--link", "http://localhost/simulate#machine=ryzen7-7840u-spec&kernel=perm&n=2^12&curve=1")
	if status != 0 || !strings.Contains(out, `"miss_curves"`) {
		t.Errorf("a link with curve=1: status %d, %s; output has no miss curve", status, errOut)
	}
	text, _, _ := runCLI("simulate", "--miss-curve", "--machine", "ryzen7-7840u-spec", "--kernel", "perm", "--set", "n=2^12")
	if !strings.Contains(text, "miss curve, 64-byte lines") || !strings.Contains(text, "L2") {
		t.Errorf("text output:\n%s", text)
	}
}

// memwall run --miss-curve: a program's curve, at each level's size, is
// that level's misses; on the MBRAM paper's machine, at C/B lines, the
// MBRAM simulator's. The program scatters 2^17 ints (512 KiB an array)
// through a permutation, well beyond the Pentium 4's 256 KiB cache.
func TestRunMissCurve(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scatter.mw")
	src := "param N = 2^17\nint A[N] = perm(), B[N];\nfor (i = 0; i < N; i++) B[A[i]] = i;\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, machineID := range []string{"ryzen7-7840u-spec", "p4-1.7-pc133"} {
		out, errOut, status := runCLI("run", path, "--json", "--miss-curve", "--machine", machineID)
		if status != 0 {
			t.Fatalf("%s: status %d: %s", machineID, status, errOut)
		}
		var v struct {
			Result struct {
				Counts     map[string]int64 `json:"counts"`
				Hierarchy  *hier.Result     `json:"hierarchy"`
				MissCurves []hier.MissCurve `json:"miss_curves"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		r := v.Result
		if len(r.MissCurves) != 1 {
			t.Fatalf("%s: %d miss curves", machineID, len(r.MissCurves))
		}
		c := r.MissCurves[0]
		if r.Hierarchy != nil {
			for _, l := range r.Hierarchy.Levels {
				if got, ok := c.At(l.Level.Size / l.Level.Line); !ok || got != l.Counts.Misses {
					t.Errorf("%s: the curve gives %d (%v), the level %d misses", l.Level.Name, got, ok, l.Counts.Misses)
				}
			}
		} else if got, ok := c.At(2048); !ok || got != r.Counts["misses"] || got <= c.Cold {
			t.Errorf("p4: the curve at C/B gives %d (%v), the MBRAM simulator %d misses (%d first accesses)", got, ok, r.Counts["misses"], c.Cold)
		}
	}
}
