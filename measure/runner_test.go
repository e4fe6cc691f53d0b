package measure

import (
	"testing"
)

// TestRunners runs every reference kernel once on a small input: each must
// build, run and pass its Check (a sort's keys in order). The kernels'
// results are checked against independent routes in kernels_test.go.
func TestRunners(t *testing.T) {
	for _, k := range referenceKernels() {
		for _, fresh := range []bool{false, true} {
			// Offsets within a page, at its end, and past it (taken
			// modulo a page): the sorts still sort.
			for _, off := range []int{0, 16, 1008, 5000} {
				n := 3000
				if k == "matmul" {
					n = 24
				}
				r, err := NewRunner(k, RunOptions{N: n, C: 64 << 10, Seed: 1, FreshKeys: fresh, Offset: off})
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				r.Setup()
				r.Call()
				if err := r.Check(); err != nil {
					t.Errorf("%s (fresh keys %v, offset %d): %v", k, fresh, off, err)
				}
			}
		}
	}
	if a := placedWords(5, 3); len(a) != 5 || cap(a) != 5 {
		t.Errorf("placedWords(5, 3): len %d, cap %d; want 5 and 5 (3 words before it)", len(a), cap(a))
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
