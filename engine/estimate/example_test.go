package estimate_test

import (
	"fmt"

	"memwall/engine/estimate"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

// A machine that gives its cache levels is predicted by the hierarchy
// model, an estimate; the MBRAM paper's closed forms come beside it, and
// there they are no bound.
func ExamplePredict() {
	m := machine.Machine{Name: "two levels", Beta1: 10e9, Beta2: 4e9, Mu1: 2, M: 5e-9, MemLatency: 100e-9, ComputeRate: 1e10}.
		WithLevels([]machine.Level{
			{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 128e9, Beta2: 64e9, Latency: 1e-9},
			{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 32e9, Beta2: 16e9, Latency: 4e-9},
		})
	r, err := estimate.Predict(m, "heapsort", mbram.DefaultParams(1<<20), estimate.Auto)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %s (%s)\n", r.Model.Title(), units.FormatSeconds(r.Breakdown.Seconds), r.Note)
	for _, t := range r.Breakdown.Terms {
		fmt.Printf("  %s: %s\n", t.Name, units.FormatSeconds(t.Seconds))
	}
	if o := r.Other; o != nil {
		fmt.Printf("%s: %s (%s)\n", o.Model.Title(), units.FormatSeconds(o.Breakdown.Seconds), o.Note)
	}
	// Output:
	// Hierarchy model: 146.5 ms (an estimate: per cache level, with the core's own rate and the branch mispredictions)
	//   compute: 25.17 ms
	//   branch mispredictions: 57.67 ms
	//   L1 ← L2: 9.175 ms
	//   L2 ← memory: 54.53 ms
	// MBRAM (the paper's model): 210.9 ms (the paper's one-cache model; a lower bound on the paper's machines, not on one with several cache levels)
}
