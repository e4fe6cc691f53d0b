package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/mbram"
)

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
	dir := t.TempDir()
	b, _ := json.Marshal(fast)
	f := filepath.Join(dir, "fast.json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCLI("calibrate", "--compare", id, "--against", f)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"validate --sizes levels' rows", "\nl2      quicksort ", "3 of 30 estimates differ by more than 10%; the most, quicksort in the "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
