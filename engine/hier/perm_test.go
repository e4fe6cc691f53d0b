package hier

import (
	"context"
	"testing"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// permTrace is the access trace of engine/kernels' traditional permutation
// product, Z[i] = Y[X[i]] for i = 0..n−1 with words of 1<<wlog bytes: the
// same data (kernels.Data draws X, then Y, as the kernel does with the same
// seed) and the same layout (the arrays one after another from 1 MiB, each
// aligned to 4 KiB or the line). The kernel feeds an engine/sim simulator
// and cannot feed this one, so its loop is written out again here; each
// batch of ops is the kernel's Batch call, the read of X[i], the read of
// Y[X[i]] (not dependent: X is scanned) and the write of Z[i].
type permTrace struct {
	x, y       []uint32
	xb, yb, zb uint64
	wlog       uint
}

func newPermTrace(n int, wlog uint, line int64, seed uint64) permTrace {
	d := kernels.NewData(seed)
	p := permTrace{x: d.Permutation(n), y: d.Permutation(n), wlog: wlog}
	align := uint64(max(4096, line))
	next := uint64(1 << 20)
	alloc := func() uint64 {
		base := (next + align - 1) &^ (align - 1)
		next = base + uint64(n)<<wlog
		return base
	}
	p.xb, p.yb, p.zb = alloc(), alloc(), alloc()
	return p
}

// run feeds the trace to s, 256 elements (768 accesses) a batch.
func (p permTrace) run(s *Sim) {
	const batch = 256
	var ops [3 * batch]uint64
	w := p.wlog & 63
	for lo := 0; lo < len(p.x); lo += batch {
		xs := p.x[lo:min(lo+batch, len(p.x))]
		o := ops[:3*len(xs)]
		for i, xi := range xs {
			a := uint64(lo+i) << w
			o[3*i] = (p.xb + a) &^ (WriteBit | DepBit)
			o[3*i+1] = (p.yb + uint64(xi)<<w) &^ (WriteBit | DepBit)
			o[3*i+2] = (p.zb+a)&^DepBit | WriteBit
		}
		s.Batch(o)
	}
}

// TestPermTraceIsTheKernels: on the paper's machine, a one-level
// hierarchy fed permTrace has the misses and write-backs of engine/sim fed
// by the kernel itself, so the two traces agree (up to the order of the
// accesses within a line, which no count sees).
func TestPermTraceIsTheKernels(t *testing.T) {
	m := machine.Machine{Name: "p4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 64 << 10, B: 128, M: 11.76e-9}
	const n = 1 << 15
	r, err := kernels.Simulate(context.Background(), m, 0, "perm", mbram.DefaultParams(n), kernels.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ConfigFor(m))
	if err != nil {
		t.Fatal(err)
	}
	newPermTrace(n, 2, m.B, 3).run(s)
	s.Finish()
	c := s.Levels()[0]
	if c.Accesses != r.Counts.Accesses || c.Misses != r.Counts.Misses || c.Writebacks != r.Counts.Writebacks {
		t.Errorf("hier: %d accesses, %d misses, %d write-backs; the kernel on engine/sim: %d, %d, %d",
			c.Accesses, c.Misses, c.Writebacks, r.Counts.Accesses, r.Counts.Misses, r.Counts.Writebacks)
	}
}

// benchLevels is a current core's hierarchy: 32 KiB L1, 1 MiB L2, 8 MiB
// L3, 64-byte lines.
var benchLevels = []machine.Level{
	{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
	{Name: "L2", Size: 1 << 20, Line: 64, Beta1: 100e9, Beta2: 40e9},
	{Name: "L3", Size: 8 << 20, Line: 64, Beta1: 20e9, Beta2: 8e9},
}

// BenchmarkPermTrace simulates the permutation product at N = 2^22
// (4-byte words, 3·2^22 accesses, 2^18 lines per array) through
// benchLevels and reports the cost per simulated access. The data are
// drawn once, outside the timing. Under callgrind (GODEBUG=asyncpreemptoff=1,
// GOMAXPROCS=1, -test.benchtime=1x; the self cost of the simulator's
// functions over the 3·2^22 accesses) the simulator takes about 167
// instructions an access, and 120 through the one level of
// BenchmarkPermTraceOneLevel (176 and 130 before the flat table of
// pages, doc.go). engine/sim's BenchmarkBatchPermN22 takes 112 with its
// loop.
func BenchmarkPermTrace(b *testing.B) { benchPerm(b, Config{Levels: benchLevels, MemLatency: 90e-9}) }

// BenchmarkPermTraceCurves is BenchmarkPermTrace with the miss curve
// (Config.Curves): every access's exact stack distance.
func BenchmarkPermTraceCurves(b *testing.B) {
	benchPerm(b, Config{Levels: benchLevels, MemLatency: 90e-9, Curves: true})
}

// BenchmarkPermTraceOneLevel is BenchmarkPermTrace through the one level
// of engine/sim's BenchmarkBatchPermN22 (256 KiB of 64-byte lines), for
// comparison.
func BenchmarkPermTraceOneLevel(b *testing.B) {
	benchPerm(b, Config{Levels: []machine.Level{{Name: "cache", Size: 256 << 10, Line: 64, Beta1: 2.12e9, Beta2: 0.95e9}}})
}

func benchPerm(b *testing.B, c Config) {
	const n = 1 << 22
	p := newPermTrace(n, 2, 64, 1)
	s, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var accesses int64
	for range b.N {
		s.Reset()
		p.run(s)
		s.Finish()
		accesses += s.Levels()[0].Accesses
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(accesses), "ns/access")
	b.ReportMetric(float64(accesses)/float64(b.N), "accesses/op")
}
