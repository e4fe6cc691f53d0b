package sim

import "testing"

// BenchmarkSyntheticPerm feeds the access pattern of the permutation
// product at N = 2^22 (X and Z scanned, Y at a pseudo-random place) with
// no real arrays behind it: the cost of the simulator alone.
func BenchmarkSyntheticPerm(b *testing.B) {
	s, _ := New(Config{Line: 64, Lines: 4096, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	const n = 1 << 22
	var accesses int64
	for range b.N {
		s.Reset()
		x := uint32(12345)
		for i := uint64(0); i < n; i++ {
			x = x*1664525 + 1013904223
			s.Read(1<<20 + i*4)
			s.Read(1<<25 + uint64(x>>10)*4)
			s.Write(1<<26 + i*4)
		}
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

func BenchmarkSyntheticPermSmallCache(b *testing.B) {
	s, _ := New(Config{Line: 64, Lines: 64, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	const n = 1 << 22
	var accesses int64
	for range b.N {
		s.Reset()
		x := uint32(12345)
		for i := uint64(0); i < n; i++ {
			x = x*1664525 + 1013904223
			s.Read(1<<20 + i*4)
			s.Read(1<<25 + uint64(x>>10)*4)
			s.Write(1<<26 + i*4)
		}
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

func BenchmarkScan(b *testing.B) {
	s, _ := New(Config{Line: 64, Lines: 4096, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	const n = 1 << 22
	var accesses int64
	for range b.N {
		s.Reset()
		for i := uint64(0); i < n; i++ {
			s.Read(1<<20 + i*4)
		}
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

func BenchmarkRandomMiss(b *testing.B) {
	s, _ := New(Config{Line: 64, Lines: 4096, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	const n = 1 << 22
	var accesses int64
	for range b.N {
		s.Reset()
		x := uint32(12345)
		for i := uint64(0); i < n; i++ {
			x = x*1664525 + 1013904223
			s.Read(1<<25 + uint64(x>>10)*4)
		}
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

// benchBatchPerm feeds the permutation product's accesses (X and Z
// scanned, Y at a pseudo-random word of yWords) through Batch, 768 at a
// time, with no real arrays behind them: the simulator alone.
func benchBatchPerm(b *testing.B, yWords uint64) {
	s, _ := New(Config{Line: 64, Lines: 4096, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	const n = 1 << 22
	var ops [768]uint64
	var accesses int64
	for range b.N {
		s.Reset()
		x := uint32(12345)
		for lo := uint64(0); lo < n; lo += 256 {
			for i := range uint64(256) {
				x = x*1664525 + 1013904223
				ops[3*i] = 1<<20 + (lo+i)*4
				ops[3*i+1] = 1<<27 + (uint64(x)*yWords>>32)*4
				ops[3*i+2] = 1<<28 + (lo+i)*4 | WriteBit
			}
			s.Batch(ops[:])
		}
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

// BenchmarkBatchPermN22 is the simulator's share of BenchmarkPermN22 in
// engine/kernels: the same accesses, the same Batch calls, no kernel.
func BenchmarkBatchPermN22(b *testing.B) { benchBatchPerm(b, 1<<22) }
