package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/measure"
	"memwall/presets"
)

// TestParseSweep: what --sweep accepts, and each fault named with what is
// accepted.
func TestParseSweep(t *testing.T) {
	for _, tc := range []struct {
		in       string
		kernel   string
		from, to int64
		err      string
	}{
		{"perm:1Mi..32Mi", "perm", 1 << 20, 32 << 20, ""},
		{" heapsort : 2^16 .. 2^20 ", "heapsort", 1 << 16, 1 << 20, ""},
		{"matmul:100..1200", "matmul", 100, 1200, ""},
		{"radix-count:5..5", "radix-count", 5, 5, ""},
		{"perm", "", 0, 0, "want KERNEL:FROM..TO"},
		{"bogosort:1..2", "", 0, 0, `kernel "bogosort" is not one of validate's`},
		{"perm:1Mi-2Mi", "", 0, 0, "want the sizes as FROM..TO"},
		{"perm:0..2", "", 0, 0, `FROM "0"; want a whole number from 1`},
		{"perm:1.5..2", "", 0, 0, `FROM "1.5"`},
		{"perm:1..4Gi", "", 0, 0, `TO "4Gi"; want a whole number from 1 to 2Gi`},
		{"matmul:100..6000", "", 0, 0, `TO "6000"; want a whole number from 1 to 5000`},
		{"perm:2Mi..1Mi", "", 0, 0, "TO (1Mi) is below FROM (2Mi)"},
	} {
		sp, err := parseSweep(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "--sweep") {
				t.Errorf("%q: error %v, want one naming --sweep with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || sp.kernel != tc.kernel || sp.from != tc.from || sp.to != tc.to {
			t.Errorf("%q: %+v, %v; want %s %d..%d", tc.in, sp, err, tc.kernel, tc.from, tc.to)
		}
	}
}

// TestSweepSizes: two points a doubling, by hand, with both ends.
func TestSweepSizes(t *testing.T) {
	const mi = 1 << 20
	for _, tc := range []struct {
		sp   sweepSpec
		want []int64
	}{
		{sweepSpec{"perm", mi, 8 * mi}, []int64{mi, 3 * mi / 2, 2 * mi, 3 * mi, 4 * mi, 6 * mi, 8 * mi}},
		{sweepSpec{"perm", 3, 20}, []int64{3, 4, 6, 8, 12, 16, 20}},
		{sweepSpec{"perm", 5, 5}, []int64{5}},
		{sweepSpec{"matmul", 100, 130}, []int64{100, 128, 130}},
		{sweepSpec{"perm", 1, 3}, []int64{1, 2, 3}},
	} {
		if got := tc.sp.sizes(); !slices.Equal(got, tc.want) {
			t.Errorf("%d..%d: %v, want %v", tc.sp.from, tc.sp.to, got, tc.want)
		}
	}
}

// FuzzParseSweep: any text is refused with a message or read as a sweep
// whose sizes run from FROM to TO, rising, within the limits.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"perm:1Mi..32Mi", "matmul:8..5000", "heapsort:2^10..2^31", "x", ":..", "perm:1..", "perm:9e9..1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := parseSweep(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--sweep") {
				t.Fatalf("%q: %v does not name the flag", s, err)
			}
			return
		}
		ns := sp.sizes()
		if len(ns) == 0 || ns[0] != sp.from || ns[len(ns)-1] != sp.to || sp.to > maxSweepN || len(ns) > maxSweepPoints {
			t.Fatalf("%q: sizes %v for %d..%d", s, ns, sp.from, sp.to)
		}
		for i := 1; i < len(ns); i++ {
			if ns[i] <= ns[i-1] {
				t.Fatalf("%q: sizes %v do not rise", s, ns)
			}
		}
	})
}

// TestRunSweep: a small sweep runs every size, prints the hierarchy's band
// over them and no ranking of sorts, and its JSON reads back with --rows.
func TestRunSweep(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runValidate([]string{"--machine", "xeon-kvm-2vcpu", "--sweep", "perm:1Ki..4Ki", "--reps", "1", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	sizes, rows, err := parseValidateRows(out.Bytes())
	if err != nil || sizes != sweepClass || len(rows) != 5 {
		t.Fatalf("sizes %q, %d rows, %v; want the sweep's 5 (1Ki, 1.5Ki, 2Ki, 3Ki, 4Ki)", sizes, len(rows), err)
	}
	for i, n := range []int64{1024, 1536, 2048, 3072, 4096} {
		if r := rows[i]; r.N != n || r.Kernel != "perm" || r.Class != sweepClass || !(r.Measured > 0) || !(r.Hier > 0) {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	rep, err := rejudgeRows(mustMachine(t, "xeon-kvm-2vcpu"), sizes, rows)
	if err != nil || len(rep.Classes) != 0 || len(rep.Rows) != 5 {
		t.Fatalf("rejudged: %d classes, %d rows, %v", len(rep.Classes), len(rep.Rows), err)
	}
	var text bytes.Buffer
	printValidateLevels(&text, mustMachine(t, "xeon-kvm-2vcpu"), rep)
	if s := text.String(); !strings.Contains(s, "sweep   hierarchy ratios in [0.80, 1.25]: ") || strings.Contains(s, "Spearman") || strings.Contains(s, "overlap") {
		t.Errorf("the sweep's text:\n%s", s)
	}
	// On a machine whose levels' transfers overlap, and whose heap walk
	// was measured, the header says so.
	text.Reset()
	printValidateLevels(&text, mustMachine(t, "epyc-zen4-kvm-2vcpu"), rep)
	if s := text.String(); !strings.Contains(s, "L3 12.26 MiB (levels' transfers overlap, ω = 1) (a heap walk's lines in flight 3.86); paper's") {
		t.Errorf("the AMD guest's header:\n%s", s)
	}
}

func mustMachine(t *testing.T, id string) machine.Machine {
	t.Helper()
	m, ok := presets.Machine(id)
	if !ok {
		t.Fatalf("no preset %s", id)
	}
	return m
}

// TestSweepHostChecks: a sweep checks the core at every round and at its
// end, and memory where a size's arrays pass twice the last cache: the
// permutation products of 2^21 elements hold 32 MiB (sweepBytes), past
// twice the Zen 5 preset's 14.25 MiB; those of 2^10 stay in the caches.
func TestSweepHostChecks(t *testing.T) {
	for _, tc := range []struct {
		sweep       string
		core, mem   int
		wantMemSpan bool
	}{
		{"perm:1Ki..1Ki", 3, 0, false}, // two rounds and the end
		{"perm:2Mi..2Mi", 3, 3, true},
	} {
		var out, errb bytes.Buffer
		if code := runValidate([]string{"--machine", "epyc-zen5-kvm-2vcpu", "--sweep", tc.sweep, "--reps", "2", "--json"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.sweep, code, errb.String())
		}
		var rep validateReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.HostSpeed) != 1 || rep.HostSpeed[0].Class != sweepClass || rep.HostSpeed[0].Checks != tc.core {
			t.Errorf("%s: core checks %+v, want %d in the sweep", tc.sweep, rep.HostSpeed, tc.core)
		}
		if got := len(rep.MemorySpeed); (got == 1) != tc.wantMemSpan || (got == 1 && (rep.MemorySpeed[0].Checks != tc.mem || rep.MemorySpeed[0].Span != measure.MemorySpeedSpan(mustMachine(t, "epyc-zen5-kvm-2vcpu")))) {
			t.Errorf("%s: memory checks %+v, want %d over the machine's span", tc.sweep, rep.MemorySpeed, tc.mem)
		}
	}
}
