package lang

import (
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// TestClosedForm: the closed form of a program's built-in kernel is
// mbram's at the program's size, with its b as the buckets.
func TestClosedForm(t *testing.T) {
	m := machine.Machine{ID: "p4", Name: "p4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
	want, _ := mbram.Seconds(m, "radix", mbram.Params{N: 1 << 20, W: 4, Buckets: 256})
	if got, ok := ClosedForm(m, "radix", 1<<20, map[string]int64{"N": 1 << 10, "b": 256}); !ok || got != want {
		t.Errorf("radix: %v %v, want %v", got, ok, want)
	}
	want, _ = mbram.Seconds(m, "quicksort", mbram.DefaultParams(1<<16))
	if got, ok := ClosedForm(m, "quicksort", 1<<16, nil); !ok || got != want {
		t.Errorf("quicksort: %v %v, want %v", got, ok, want)
	}
	if _, ok := ClosedForm(m, "", 1<<16, nil); ok {
		t.Error("a program without a kernel has a closed form")
	}
	if _, ok := ClosedForm(m, "matmul", 1<<30, nil); ok {
		t.Error("a matrix beyond the closed form's limit has one")
	}
}
