package sim

import "testing"

// benchRuns runs feed on a fresh simulator of the given lines (64-byte
// lines, the 2.66 GHz Pentium 4's bandwidths) b.N times and reports the
// simulated accesses per second.
func benchRuns(b *testing.B, lines int64, feed func(s *Sim)) {
	s, _ := New(Config{Line: 64, Lines: lines, Mu1: 2, Beta1: 2.12e9, Beta2: 0.95e9, Mispredict: 7.52e-9})
	var accesses int64
	for range b.N {
		s.Reset()
		feed(s)
		s.Finish()
		accesses += s.Counts().Accesses
	}
	b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "accesses/s")
}

const benchN = 1 << 22

// syntheticPerm is the access pattern of the permutation product at
// N = 2^22 (X and Z scanned, Y at a pseudo-random place) with no real
// arrays behind it, one Read or Write call per access.
func syntheticPerm(s *Sim) {
	x := uint32(12345)
	for i := uint64(0); i < benchN; i++ {
		x = x*1664525 + 1013904223
		s.Read(1<<20 + i*4)
		s.Read(1<<25 + uint64(x>>10)*4)
		s.Write(1<<26 + i*4)
	}
}

// BenchmarkSyntheticPerm is the cost of the simulator alone on the
// permutation product's pattern, with the 256 KiB cache of the target.
func BenchmarkSyntheticPerm(b *testing.B) { benchRuns(b, 4096, syntheticPerm) }

func BenchmarkSyntheticPermSmallCache(b *testing.B) { benchRuns(b, 64, syntheticPerm) }

func BenchmarkScan(b *testing.B) {
	benchRuns(b, 4096, func(s *Sim) {
		for i := uint64(0); i < benchN; i++ {
			s.Read(1<<20 + i*4)
		}
	})
}

func BenchmarkRandomMiss(b *testing.B) {
	benchRuns(b, 4096, func(s *Sim) {
		x := uint32(12345)
		for i := uint64(0); i < benchN; i++ {
			x = x*1664525 + 1013904223
			s.Read(1<<25 + uint64(x>>10)*4)
		}
	})
}

// BenchmarkBatchPermN22 is the simulator's share of BenchmarkPermN22 in
// engine/kernels: the permutation product's accesses (X and Z scanned, Y
// at a pseudo-random word of 2^22) through Batch, 768 at a time, the same
// calls, no kernel and no real arrays.
func BenchmarkBatchPermN22(b *testing.B) {
	var ops [768]uint64
	benchRuns(b, 4096, func(s *Sim) {
		x := uint32(12345)
		for lo := uint64(0); lo < benchN; lo += 256 {
			for i := range uint64(256) {
				x = x*1664525 + 1013904223
				ops[3*i] = 1<<20 + (lo+i)*4
				ops[3*i+1] = 1<<27 + (uint64(x)*benchN>>32)*4
				ops[3*i+2] = 1<<28 + (lo+i)*4 | WriteBit
			}
			s.Batch(ops[:])
		}
	})
}
