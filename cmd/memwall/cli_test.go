package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/machine"
)

func runCLI(args ...string) (stdout, stderr string, status int) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return o.String(), e.String(), status
}

// TestPredictJSON: the MBRAM paper's Fig. 5 prints 1.51 s for quicksort on the 1.7 GHz
// Pentium 4 with N = 8Mi; its §V splits it 0.38 + 1.13.
func TestPredictJSON(t *testing.T) {
	out, errs, st := runCLI("predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=8Mi", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var got struct {
		Seconds float64
		Regime  string
		Terms   []struct {
			Name    string
			Seconds float64
			Formula string
		}
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if math.Round(got.Seconds*100)/100 != 1.51 || len(got.Terms) != 2 || got.Regime == "" || got.Warnings == nil {
		t.Fatalf("%+v", got)
	}
	if math.Round(got.Terms[0].Seconds*100)/100 != 0.38 || !strings.Contains(got.Terms[0].Formula, "= 2·4·8388608 B") {
		t.Fatalf("first term %+v", got.Terms[0])
	}
}

func TestPredictText(t *testing.T) {
	out, _, st := runCLI("predict", "--machine", "p4-2.66-ddr266", "--kernel", "matmul", "--set", "n=4000")
	if st != 0 || !strings.Contains(out, "predicted: 8744 s") || !strings.Contains(out, "regime:    (2)") || !strings.Contains(out, "warnings:") {
		t.Fatalf("status %d\n%s", st, out)
	}
}

func TestPredictMachineFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	os.WriteFile(path, []byte(`{"name":"P4","beta1":"1.06 GB/s","beta2":"0.85 GB/s","mu1":2,"cache":"256 KiB","line":128,"mispredict":"11.76 ns"}`), 0o644)
	out, errs, st := runCLI("predict", "--machine", path, "--kernel", "radix", "--set", "n=2^23", "--json")
	if st != 0 {
		t.Fatal(errs)
	}
	// The MBRAM paper's Fig. 5: simple radix sort 0.47 s.
	if !strings.Contains(out, `"seconds": 0.47`) {
		t.Fatalf("%s", out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"name":"P4","beta1":"0 GB/s","beta2":"0.85 GB/s","mu1":2,"cache":"256 KiB","line":128,"mispredict":"11.76 ns"}`), 0o644)
	_, errs, st = runCLI("predict", "--machine", bad, "--kernel", "radix")
	if st != 2 || !strings.Contains(errs, "beta1: sequential bandwidth must be between") {
		t.Fatalf("status %d: %s", st, errs)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"nosuch"}, `memwall: unknown command "nosuch"`},
		{[]string{"predict", "--kernel", "quicksort"}, "memwall predict: --machine: give a preset id"},
		{[]string{"predict", "--machine", "p9", "--kernel", "quicksort"}, `memwall predict: --machine: "p9" is neither a preset id (p4-2.66-ddr266, p4-1.7-pc133, p3-0.6-pc100, p2-0.35-pc66`},
		{[]string{"predict", "--machine", "missing.json", "--kernel", "quicksort"}, "memwall predict: --machine: open missing.json: no such file or directory"},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "bogosort"}, `memwall predict: kernel: unknown kernel "bogosort"`},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=1.5"}, `memwall predict: --set n: "1.5" is not a whole number`},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=0"}, "memwall predict: n: elements must be a whole number from 1 to"},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "q=3"}, `memwall predict: --set "q=3": unknown parameter "q" (n, w or b)`},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n"}, `memwall predict: --set "n": want name=value, e.g. n=8Mi`},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "extra"}, `memwall predict: unexpected argument "extra"`},
		{[]string{"predict", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"replicate"}, "Usage: memwall replicate mbram"},
	} {
		_, errs, st := runCLI(c.args...)
		if st != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, st, errs, c.want)
		}
	}
}

func TestListings(t *testing.T) {
	out, _, st := runCLI("kernels")
	for _, id := range []string{"perm", "perm-twopass", "matmul", "quicksort", "mergesort", "heapsort", "bucket", "bucket-count", "radix", "radix-count"} {
		if !strings.Contains(out, id+" — ") {
			t.Errorf("kernels lacks %s", id)
		}
	}
	if st != 0 || !strings.Contains(out, "--set b=...  buckets per pass (the radix) (default 64)") {
		t.Errorf("kernels:\n%s", out)
	}
	out, _, st = runCLI("machines")
	// The 1.7 GHz Pentium 4 of the MBRAM paper's Fig. 2, column by column (the widths
	// follow the longest preset, so compare fields, not spacing).
	want := []string{"p4-1.7-pc133", "1.06", "GB/s", "850", "MB/s", "2", "256", "KiB", "128", "B", "11.76", "ns"}
	found := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= len(want) && strings.Join(f[:len(want)], " ") == strings.Join(want, " ") {
			found = true
		}
	}
	if st != 0 || !found {
		t.Errorf("machines:\n%s", out)
	}
	out, _, st = runCLI("replicate", "mbram")
	if st != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "Fig. 5 p4-1.7-pc133 quicksort 8388608 2.40 1.51 1.514 +0.3%") {
		t.Errorf("replicate:\n%s", out)
	}
}

// FuzzPredictArgs: whatever the arguments, predict never panics and never
// prints NaN or Inf; a failure is status 2 with a message.
func FuzzPredictArgs(f *testing.F) {
	f.Add("p4-1.7-pc133", "quicksort", "n=8Mi", "w=4")
	f.Add("p2-0.35-pc66", "matmul", "n=16777216", "w=4096")
	f.Add("p3-0.6-pc100", "bucket", "b=2", "n=2^50")
	f.Add("x", "radix-count", "n=-1", "b=1e999")
	f.Fuzz(func(t *testing.T, mach, kernel, set1, set2 string) {
		for _, asJSON := range []bool{false, true} {
			args := []string{"predict", "--machine", mach, "--kernel", kernel, "--set", set1, "--set", set2}
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

// TestMachinesKerncraft imports the Kerncraft fixture of engine/machine:
// C = 40960 sets · 11 ways · 64 B = 28 835 840 B, β1 = the one-core copy
// from memory, 13.08 GB/s; β2 and m come from the flags. Without them the
// command names what is missing and the flags that give it.
func TestMachinesKerncraft(t *testing.T) {
	const file = "../../engine/machine/testdata/kerncraft-block.yml"
	out, errOut, st := runCLI("machines", "--kerncraft", file, "--beta2", "2.5GB/s", "--mispredict", "6ns", "--name", "Box")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	m, err := machine.ParseJSON([]byte(out))
	if err != nil {
		t.Fatalf("the output is not a machine file: %v\n%s", err, out)
	}
	want := machine.Machine{Beta1: 13.08e9, Beta2: 2.5e9, Mu1: 2, C: 28835840, B: 64, M: 6e-9}
	if m.Name != "Box" || m.Beta1 != want.Beta1 || m.Beta2 != want.Beta2 || m.Mu1 != 2 || m.C != want.C || m.B != want.B || math.Abs(m.M-want.M) > 1e-18 {
		t.Errorf("got %+v; want %+v named Box", m, want)
	}
	_, errOut, st = runCLI("machines", "--kerncraft", file)
	if st != 2 || !strings.Contains(errOut, "beta2:") || !strings.Contains(errOut, "mispredict:") || !strings.Contains(errOut, "--beta2") {
		t.Errorf("without β2 and m: status %d, %q", st, errOut)
	}
	_, errOut, st = runCLI("machines", "--kerncraft", "no-such-file.yml")
	if st != 2 || !strings.Contains(errOut, "no-such-file.yml") {
		t.Errorf("a missing file: status %d, %q", st, errOut)
	}
}
