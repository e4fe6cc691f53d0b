package lang

import (
	"context"
	goruntime "runtime"
	"testing"

	"memwall/engine/hier"
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

// TestKernelsHierarchyMatchesPrograms runs each built-in kernel through
// the hierarchy simulator twice, as engine/kernels' instrumented kernel
// (its accesses passed on by kernels.Options.Tracer) and as the
// language's program, on a machine of three levels: the traces are the
// same, so every level's accesses, fills by kind and write-backs must be
// equal. Only what counts as dependent differs: the kernel marks
// heapsort's reads of a node's children, the language's analysis every
// access whose index a chain of loads computes.
func TestKernelsHierarchyMatchesPrograms(t *testing.T) {
	m := machine.Machine{Name: "three levels", Mu1: 2, M: 5e-9, MemLatency: 80e-9}.WithLevels([]machine.Level{
		{Name: "L1", Size: 8 << 10, Line: 64, Beta1: 100e9, Beta2: 40e9},
		{Name: "L2", Size: 64 << 10, Line: 64, Beta1: 50e9, Beta2: 20e9},
		{Name: "L3", Size: 256 << 10, Line: 128, Beta1: 20e9, Beta2: 8e9},
	})
	for _, ex := range Examples() {
		if ex.Kernel == "" {
			continue
		}
		n := int64(1<<15 + 3)
		if ex.Kernel == "matmul" {
			n = 80
		}
		prog, err := Compile(ex.Source)
		if err != nil {
			t.Fatal(err)
		}
		const seed = 5
		got, err := prog.Run(context.Background(), m, sim.Majority, Options{Params: map[string]int64{"N": n}, Seed: seed, Branches: DataBranches})
		if err != nil {
			t.Fatalf("%s: %v", ex.ID, err)
		}
		_, want, err := hier.SimulateKernel(context.Background(), m, sim.Majority, ex.Kernel, mbram.DefaultParams(n), kernels.Options{Seed: seed})
		if err != nil {
			t.Fatalf("%s kernel: %v", ex.ID, err)
		}
		for i, l := range want.Levels {
			k, p := l.Counts, got.Hierarchy.Levels[i].Counts
			k.DependentMisses, k.DependentRandFills, p.DependentMisses, p.DependentRandFills = 0, 0, 0, 0
			if k != p {
				t.Errorf("%s, %s: kernel %+v\nprogram %+v", ex.ID, l.Level.Name, k, p)
			}
		}
		if want.Mispredictions != got.Hierarchy.Mispredictions {
			t.Errorf("%s: mispredictions kernel %d, program %d", ex.ID, want.Mispredictions, got.Hierarchy.Mispredictions)
		}
		if (want.Dependent > 0) != (ex.Kernel == "heapsort") {
			t.Errorf("%s: the kernel marked %d accesses dependent", ex.ID, want.Dependent)
		}
	}
}
