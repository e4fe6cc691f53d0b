package hier

import (
	"math/rand/v2"
	"testing"

	"memwall/engine/machine"
)

// Sample's points are Curve.Misses at their sizes (the sum over the
// histogram, bin by bin), at strictly growing sizes from one line to one
// more than the largest stack distance, where only the cold misses are
// left; and a run of
// two line sizes gives a curve for each.
func TestSampleAgainstMisses(t *testing.T) {
	m := machine.Machine{Mu1: 2, M: 5e-9}.WithLevels([]machine.Level{
		{Name: "L1", Size: 4 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
		{Name: "L2", Size: 64 << 10, Line: 128, Beta1: 20e9, Beta2: 10e9},
	})
	s, err := NewWithCurves(m)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200000; i++ {
		// A hot set of 256 words and a cold one of 1 MiB.
		a := uint64(rng.IntN(256)) * 8
		if rng.IntN(4) == 0 {
			a = 1<<24 + uint64(rng.IntN(1<<17))*8
		}
		if rng.IntN(3) == 0 {
			s.Write(a)
		} else {
			s.Read(a)
		}
	}
	curves := s.Curves()
	if len(curves) != 2 {
		t.Fatalf("%d curves, want one for each line size", len(curves))
	}
	for _, c := range curves {
		for _, per := range []int{1, 3, 4, 16, 0, 99} {
			mc := c.Sample(per)
			pts := mc.Points
			if len(pts) < 10 || pts[0].Lines != 1 || pts[len(pts)-1].Lines != int64(len(c.Hist)) {
				t.Fatalf("line %d, %d a doubling: %d points from %+v to %+v; want 1 line to %d", c.Line, per, len(pts), pts[0], pts[len(pts)-1], len(c.Hist))
			}
			for i, p := range pts {
				if i > 0 && p.Lines <= pts[i-1].Lines {
					t.Errorf("line %d: sizes %d then %d", c.Line, pts[i-1].Lines, p.Lines)
				}
				if want := c.Misses(p.Lines); p.Misses != want || p.Bytes != p.Lines*c.Line {
					t.Errorf("line %d, %d lines: %+v, want %d misses", c.Line, p.Lines, p, want)
				}
			}
			if last := pts[len(pts)-1]; last.Misses != c.Cold || mc.Accesses != c.Accesses {
				t.Errorf("line %d: the curve ends at %d misses, want the %d cold ones", c.Line, last.Misses, c.Cold)
			}
		}
	}
	// Sizes asked for are sampled exactly, beyond the end too.
	c := curves[0]
	for _, l := range []int64{3, 61, 1000, 5 << 20} {
		mc := c.Sample(4, 61, 1000, 3, 5<<20)
		if got, ok := mc.At(l); !ok || got != c.Misses(l) {
			t.Errorf("at %d lines: %d, %v; want %d", l, got, ok, c.Misses(l))
		}
	}
	if _, ok := c.Sample(4).At(61); ok {
		t.Error("a size not asked for was sampled")
	}
	if got := (Curve{Line: 64}).Sample(4); len(got.Points) != 0 {
		t.Errorf("an empty run sampled to %+v", got)
	}
}
