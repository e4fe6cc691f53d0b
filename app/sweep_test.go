package app

import (
	"testing"

	"memwall/engine/estimate"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/presets"
)

// BenchmarkSweepEveryKernel is the "200-point sweep of
// every kernel" of docs/readings.md (< 20 ms in the browser), here natively; the browser run is
// e2e's BenchmarkLoad (sweep-9-kernels-ms).
func BenchmarkSweepEveryKernel(b *testing.B) {
	benchSweep(b, scenario.Default(presets.Machine), estimate.MBRAM)
}

// BenchmarkSweepEveryKernelHier is BenchmarkSweepEveryKernel through the
// hierarchy model, on the calibrated AMD preset.
func BenchmarkSweepEveryKernelHier(b *testing.B) {
	s := scenario.Default(presets.Machine)
	m, ok := presets.Machine("epyc-zen4-kvm-2vcpu")
	if !ok {
		b.Fatal("no preset epyc-zen4-kvm-2vcpu")
	}
	s.Machine = m
	benchSweep(b, s, estimate.Hier)
}

// benchSweep sweeps s's kernel and every kernel on its axis by model.
func benchSweep(b *testing.B, s scenario.Scenario, model estimate.Model) {
	for _, k := range mbram.Kernels() {
		if k.ID != s.Kernel && sameAxis(k.ID, s.Kernel) {
			s.Compare = append(s.Compare, k.ID)
		}
	}
	b.ResetTimer()
	points := 0
	for i := 0; i < b.N; i++ {
		points = sweepKernels(s, model).Points
	}
	b.ReportMetric(float64(points), "predictions/op")
}

func TestSweepGrid(t *testing.T) {
	xs := sweepGrid(1<<10, 1<<32, sweepPoints)
	if len(xs) != sweepPoints || xs[0] != 1<<10 || xs[len(xs)-1] != 1<<32 {
		t.Errorf("grid: %d points from %d to %d", len(xs), xs[0], xs[len(xs)-1])
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] <= xs[i-1] {
			t.Fatalf("grid not increasing at %d", i)
		}
	}
	small := sweepGrid(16, 64, sweepPoints) // fewer whole numbers than points
	if len(small) != 49 {
		t.Errorf("grid 16..64 has %d points, want the 49 whole numbers", len(small))
	}
}

func TestSweepRangeHoldsN(t *testing.T) {
	for _, c := range []struct {
		kernel string
		n      int64
	}{{"quicksort", 8 << 20}, {"quicksort", 1 << 40}, {"quicksort", 3}, {"matmul", 500}, {"matmul", 1 << 20}} {
		lo, hi := sweepRange(c.kernel, c.n, 0, 0)
		if lo > c.n || hi < c.n || lo >= hi {
			t.Errorf("%s n=%d: range %d..%d", c.kernel, c.n, lo, hi)
		}
	}
}
