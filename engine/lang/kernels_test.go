package lang

import (
	"context"
	goruntime "runtime"
	"testing"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/presets"
)

// TestExamplesMatchKernels runs each built-in kernel written in the
// language against the instrumented kernel of engine/kernels on the same
// machine and data seed: the counts must be equal. The run charges data
// branches only, because the built-in kernels report only their key
// comparisons (engine/sim's doc.go: loop-closing branches are left out);
// with every condition charged the program's branch count would include
// its loop tests.
func TestExamplesMatchKernels(t *testing.T) {
	p4, _ := presets.Machine("p4-1.7-pc133") // C = 256 KiB, B = 128
	p3, _ := presets.Machine("p3-0.6-pc100") // C = 512 KiB, B = 32
	small := p4
	small.C = 16 << 10 // a small cache, so that matrices of n = 96 miss
	cases := []struct {
		id   string
		m    machine.Machine
		n, b int64
		pred sim.Predictor
	}{
		{"perm", p4, 1 << 17, 64, sim.Majority},
		{"perm-twopass", p4, 1<<17 + 1000, 64, sim.Majority},
		{"perm-twopass", p3, 1 << 17, 64, sim.Majority},
		{"matmul", small, 96, 64, sim.Majority},
		{"quicksort", p4, 1 << 17, 64, sim.Majority},
		{"quicksort", p3, 1<<16 + 7, 64, sim.TwoBit},
		{"mergesort", p4, 1 << 17, 64, sim.Majority},
		{"mergesort", p3, 1<<16 + 7, 64, sim.TwoBit},
		{"heapsort", p4, 1 << 17, 64, sim.Majority},
		{"heapsort", p3, 1<<16 + 7, 64, sim.TwoBit},
		{"bucket", p4, 1 << 17, 64, sim.Majority},
		{"bucket", p3, 1 << 16, 16, sim.Majority},
		{"bucket-count", p4, 1 << 17, 64, sim.Majority},
		{"bucket-count", p3, 1 << 16, 256, sim.Majority},
		{"radix", p4, 1 << 17, 64, sim.Majority},
		{"radix", p3, 1 << 16, 16, sim.Majority},
		{"radix-count", p4, 1 << 17, 64, sim.Majority},
		{"radix-count", p3, 1<<16 + 7, 32, sim.Majority},
	}
	for _, c := range cases {
		if goruntime.GOOS == "js" && c.n > 1<<16+7 {
			continue // the browser runs the smaller cases, every kernel among them
		}
		ex, ok := LookupExample(c.id)
		if !ok {
			t.Fatalf("no example %s", c.id)
		}
		prog, err := Compile(ex.Source)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		set := map[string]int64{"N": c.n}
		if _, ok := prog.Param("b"); ok {
			set["b"] = c.b
		}
		const seed = 7
		got, err := prog.Run(context.Background(), c.m, c.pred, Options{Params: set, Seed: seed, Branches: DataBranches})
		if err != nil {
			t.Fatalf("%s n=%d: %v", c.id, c.n, err)
		}
		want, err := kernels.Simulate(context.Background(), c.m, c.pred, c.id, mbram.Params{N: c.n, W: 4, Buckets: c.b}, kernels.Options{Seed: seed})
		if err != nil {
			t.Fatalf("%s kernel: %v", c.id, err)
		}
		if got.Counts != want.Counts {
			t.Errorf("%s n=%d b=%d on %s (%s):\nprogram %+v\nkernel  %+v", c.id, c.n, c.b, c.m.Name, c.pred, got.Counts, want.Counts)
		}
	}
}
