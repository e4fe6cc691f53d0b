package measure

import (
	"testing"
)

// TestRunners runs every reference kernel once on a small input: each must
// build, run and pass its Check (a sort's keys in order). The kernels'
// results are checked against independent routes in kernels_test.go.
func TestRunners(t *testing.T) {
	for _, k := range CoreKernels {
		for _, fresh := range []bool{false, true} {
			n := 3000
			if k == "matmul" {
				n = 24
			}
			r, err := NewRunner(k, RunOptions{N: n, C: 64 << 10, Seed: 1, FreshKeys: fresh})
			if err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			r.Setup()
			r.Call()
			if err := r.Check(); err != nil {
				t.Errorf("%s (fresh keys %v): %v", k, fresh, err)
			}
		}
	}
	if _, err := NewRunner("bogosort", RunOptions{N: 10}); err == nil {
		t.Error("an unknown kernel gave no error")
	}
	if _, err := NewRunner("quicksort", RunOptions{N: 0}); err == nil {
		t.Error("n = 0 gave no error")
	}
}

// TestRunnerCheckFails makes sure Check can fail: keys left unsorted.
func TestRunnerCheckFails(t *testing.T) {
	r, err := NewRunner("quicksort", RunOptions{N: 100, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	r.Setup() // keys copied in, not sorted
	if err := r.Check(); err == nil {
		t.Error("unsorted keys passed the check")
	}
}
