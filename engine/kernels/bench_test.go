package kernels

import (
	"context"
	"testing"

	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// BenchmarkPermN22 is the simulator's speed target (docs/readings.md): the traditional
// permutation product at N = 2^22 with C = 256 KiB, B = 64, reported as
// simulated accesses per second (the data are generated outside the
// timer).
func BenchmarkPermN22(b *testing.B) {
	c := sim.Config{Line: 64, Lines: 256 << 10 / 64, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9}
	s, err := sim.New(c)
	if err != nil {
		b.Fatal(err)
	}
	n := 1 << 22
	e := newEnv(s, mbram.DefaultParams(int64(n)), 1)
	x, y := e.permutation(n), e.permutation(n)
	z := make([]uint32, n)
	xb, yb, zb := e.alloc(n), e.alloc(n), e.alloc(n)
	var accesses int64
	b.ResetTimer()
	for range b.N {
		s.Reset()
		permLoop(e, x, y, z, xb, yb, zb)
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

// BenchmarkRunPerm is the same through Run, with data generation, slices
// and the final check: what the CLI and the web page pay.
func BenchmarkRunPerm(b *testing.B) {
	c := sim.Config{Line: 64, Lines: 256 << 10 / 64, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9}
	s, _ := sim.New(c)
	var accesses int64
	for range b.N {
		s.Reset()
		if err := Run(context.Background(), s, "perm", mbram.DefaultParams(1<<22), Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

// BenchmarkPermNativeN22 is the loop of BenchmarkPermN22 with nothing
// simulated, Z[i] = Y[X[i]] on the same data, reported as the accesses it
// makes per second: the ceiling of any simulator that runs the real
// kernel on this host, since the kernel's own random reads of Y (16 MiB)
// are paid before a single access is simulated.
func BenchmarkPermNativeN22(b *testing.B) {
	n := 1 << 22
	e := newEnv(nil, mbram.DefaultParams(int64(n)), 1)
	x, y := e.permutation(n), e.permutation(n)
	z := make([]uint32, n)
	b.ResetTimer()
	for range b.N {
		for i, xi := range x {
			z[i] = y[xi]
		}
	}
	b.ReportMetric(float64(3*n*b.N)/b.Elapsed().Seconds(), "accesses/s")
}
