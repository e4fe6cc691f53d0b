package sim

import "testing"

// TestNothingAllocatesPerAccess holds doc.go to its word: once the
// simulator exists, reads, writes, batches and branches allocate nothing,
// in the cache's cold phase, when it is full and evicting, and with a
// slice hook.
func TestNothingAllocatesPerAccess(t *testing.T) {
	s, err := New(Config{Line: 64, Lines: 1024, Mu1: 2, Beta1: 2e9, Beta2: 1e9, Mispredict: 5e-9})
	if err != nil {
		t.Fatal(err)
	}
	s.OnSlice(1<<10, func(*Sim) error { return nil })
	ops := make([]uint64, 4096)
	x := uint64(12345)
	for i := range ops {
		x = x*6364136223846793005 + 1442695040888963407
		ops[i] = (x >> 20) &^ 3
		if i%3 == 0 {
			ops[i] |= WriteBit
		}
	}
	addr := uint64(0)
	avg := testing.AllocsPerRun(50, func() {
		for k := 0; k < 4096; k++ {
			addr += 64 * 1031 // a stride that keeps missing
			s.Read(addr)
			s.Write(addr + 8)
			s.Branch(k&7, k&3 == 0)
		}
		s.Batch(ops)
	})
	if avg != 0 {
		t.Errorf("%.1f allocations per run of 12 288 accesses and 4096 branches, want 0", avg)
	}
}
