package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/measure"
)

// compareAgainst is the output of calibrate --compare id --against a
// file holding m.
func compareAgainst(t *testing.T, id string, m machine.Machine) string {
	t.Helper()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "against.json")
	if err := os.WriteFile(f, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCLI("calibrate", "--compare", id, "--against", f)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	return out
}

// TestCompareEstimates: calibrate --compare sets the hierarchy model's
// estimate of each of validate --sizes levels' 30 rows on both machines.
// The Zen 5 preset against itself moves none. Against a copy whose
// quicksort rate is twice the preset's, quicksort's three rows fall by
// half their work term (the model adds its terms, and only that one is
// charged at the rate: by hand, a − compute/2), and no other row moves.
func TestCompareEstimates(t *testing.T) {
	const id = "epyc-zen5-kvm-2vcpu"
	m, err := loadMachine(id)
	if err != nil {
		t.Fatal(err)
	}
	same := compareEstimates(m, m)
	if len(same) != 30 {
		t.Fatalf("%d rows, want validate's 30", len(same))
	}
	for _, e := range same {
		if e.rel() != 0 {
			t.Errorf("%s %s against itself: %+.3g", e.class, e.kernel, e.rel())
		}
	}

	fast := m
	fast.CoreRates = map[string]float64{}
	for k, v := range m.CoreRates {
		fast.CoreRates[k] = v
	}
	fast.CoreRates["quicksort"] *= 2
	moved := 0
	for _, e := range compareEstimates(m, fast) {
		if e.kernel != "quicksort" {
			if e.rel() != 0 {
				t.Errorf("%s %s moved %+.3g with only quicksort's rate changed", e.class, e.kernel, e.rel())
			}
			continue
		}
		moved++
		ea, err := hier.Model(m, "quicksort", mbram.DefaultParams(e.n))
		if err != nil {
			t.Fatal(err)
		}
		if want := ea.Seconds - ea.Compute/2; math.Abs(e.b-want) > 1e-9*want {
			t.Errorf("%s quicksort at %d: %g s, want %g (a − compute/2)", e.class, e.n, e.b, want)
		}
	}
	if moved != 3 {
		t.Errorf("quicksort in %d classes, want 3", moved)
	}

	// The command prints them after the parameters, and counts them.
	out := compareAgainst(t, id, fast)
	for _, want := range []string{"validate --sizes levels' rows", "\nl2      quicksort ", "3 of 30 estimates differ by more than 10%; the most, quicksort in the "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// fasterQuicksort is the preset id and a copy of it whose quicksort rate
// is twice the preset's, sharing no map with it.
func fasterQuicksort(t *testing.T, id string) (a, b machine.Machine) {
	t.Helper()
	a, err := loadMachine(id)
	if err != nil {
		t.Fatal(err)
	}
	b = a
	b.CoreRates = maps.Clone(a.CoreRates)
	b.CoreRates["quicksort"] *= 2
	return a, b
}

// TestParamEffects: each parameter that two calibrations read apart is
// taken into the first alone. The Zen 5 preset against a copy with
// quicksort's rate doubled and a quarter of the walk's lines in flight:
// the rate moves only quicksort's rows, most where its work term is the
// largest share (by hand, as above: compute/2 over the estimate), and
// the walk only heapsort's, the one kernel whose form reads it. A
// parameter the two share (β1) is not listed.
func TestParamEffects(t *testing.T) {
	const id = "epyc-zen5-kvm-2vcpu"
	a, b := fasterQuicksort(t, id)
	b.WalkInFlight /= 4
	effects := paramEffects(a, b, measure.Compare(a, b))
	if len(effects) != 2 {
		t.Fatalf("%d groups, want 2 (the rate and the walk): %+v", len(effects), effects)
	}
	want := 0.0 // the largest share of quicksort's rows
	for _, e := range compareEstimates(a, b) {
		if e.kernel != "quicksort" {
			continue
		}
		ea, err := hier.Model(a, "quicksort", mbram.DefaultParams(e.n))
		if err != nil {
			t.Fatal(err)
		}
		want = math.Max(want, ea.Compute/2/ea.Seconds)
	}
	over := 0
	for _, e := range effects {
		if e.invalid != "" {
			t.Errorf("%s: %s", e.group, e.invalid)
			continue
		}
		switch e.group {
		case "core_rates.quicksort":
			if e.most.kernel != "quicksort" || math.Abs(-e.most.rel()-want) > 1e-9 {
				t.Errorf("the rate moves %s by %+.4g, want quicksort by %+.4g", e.most.kernel, e.most.rel(), -want)
			}
		case "walk_in_flight":
			if e.most.kernel != "heapsort" || e.most.rel() == 0 {
				t.Errorf("the walk moves %s by %+.4g, want heapsort", e.most.kernel, e.most.rel())
			}
		default:
			t.Errorf("group %s listed; only the rate and the walk differ", e.group)
		}
		if math.Abs(e.most.rel()) > measure.AgreeWithin {
			over++
		}
	}

	out := compareAgainst(t, id, b)
	for _, w := range []string{"does alone", "\ncore_rates.quicksort ", "\nwalk_in_flight ", fmt.Sprintf("%d of 2 move an estimate by more than 10%% on their own", over)} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestEstimateCauses: each estimate that moved by more than 10 % is
// given the parameter that moves it most alone, from all of them. The
// Zen 5 preset against a copy with quicksort's rate doubled and the
// column curve's points of 2048 lines read 50 % slower: the curve's
// summary (each place count's median, of its points at 16 to 2048
// lines) does not move, as those points are each place count's slowest,
// so no column-curve parameter is listed as differing, yet the matrix
// product whose columns are that long (beyond the last cache) moves.
// Each kernel reads only its own change, so each row's move alone must
// equal its whole move, and quicksort's rows must name the rate.
func TestEstimateCauses(t *testing.T) {
	const id = "epyc-zen5-kvm-2vcpu"
	a, b := fasterQuicksort(t, id)
	b.ColumnCurve = slices.Clone(a.ColumnCurve)
	for i, p := range b.ColumnCurve {
		if p.Lines >= 2048 {
			b.ColumnCurve[i].Read *= 1.5
		}
	}
	for _, d := range measure.Compare(a, b) {
		if measure.ParamGroup(d.Param) == "column_curve" && d.Rel != 0 {
			t.Fatalf("%s differs by %g: the test needs a change the summary hides", d.Param, d.Rel)
		}
	}
	causes := estimateCauses(a, b, compareEstimates(a, b))
	want := map[string]string{"quicksort": "core_rates.quicksort", "matmul": "column_curve"}
	seen := map[string]int{}
	for _, c := range causes {
		if c.group != want[c.row.kernel] || math.Abs(c.alone-c.row.rel()) > 1e-12 {
			t.Errorf("%s %s n=%d moved %+.4g: cause %q alone %+.4g, want %q and the same move", c.row.class, c.row.kernel, c.row.n, c.row.rel(), c.group, c.alone, want[c.row.kernel])
		}
		seen[c.row.kernel]++
	}
	if seen["matmul"] == 0 || seen["quicksort"] == 0 {
		t.Fatalf("rows moved past 10%%: %v; the test needs both kernels among them", seen)
	}

	out := compareAgainst(t, id, b)
	for _, w := range []string{"the parameter that moves each most on its own", "column_curve", "core_rates.quicksort"} {
		if !strings.Contains(out[strings.Index(out, "the estimates that differ"):], w) {
			t.Errorf("the causes lack %q:\n%s", w, out)
		}
	}
}
