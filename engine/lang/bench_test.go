package lang

import (
	"context"
	"testing"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// benchMachine is the configuration of engine/kernels' BenchmarkPermN22:
// C = 256 KiB, B = 64.
var benchMachine = machine.Machine{Name: "bench", Beta1: 2.12e9, Beta2: 0.95e9, Mu1: 2, C: 256 << 10, B: 64, M: 7.52e-9}

// BenchmarkPermN22 runs the permutation product at N = 2^22 as the
// built-in kernel and as the program of the language, side by side, each
// through its Run (data generation included), reported as simulated
// accesses per second. The target: the program at least half the
// kernel's rate.
func BenchmarkPermN22(b *testing.B) {
	ex, _ := LookupExample("perm")
	prog, err := Compile(ex.Source)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kernel", func(b *testing.B) {
		var accesses int64
		for range b.N {
			r, err := kernels.Simulate(context.Background(), benchMachine, sim.Majority, "perm", mbram.DefaultParams(1<<22), kernels.Options{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			accesses += r.Counts.Accesses
		}
		b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
	})
	b.Run("program", func(b *testing.B) {
		var accesses int64
		for range b.N {
			r, err := prog.Run(context.Background(), benchMachine, sim.Majority, Options{Params: map[string]int64{"N": 1 << 22}, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			accesses += r.Counts.Accesses
		}
		b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
	})
}
