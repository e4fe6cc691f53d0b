package hier

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"memwall/engine/machine"
)

// TestPermProductAgainstSimulator holds the closed forms of PermProduct
// to the simulator on random permutations, where their assumptions hold
// (every level of 64 lines or more, every array of 256 lines or more of
// every level): per level, the fills within 5 %, the sequential fills
// within 10 %, the write-backs within 1 %, and the total time within 5 %.
// The hierarchies put Y (N·w bytes) below, across and above the levels,
// with lines of 64 and 128 bytes, and one is the paper's one level.
func TestPermProductAgainstSimulator(t *testing.T) {
	four := []machine.Level{
		{Name: "L1", Size: 8 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
		{Name: "L2", Size: 128 << 10, Line: 64, Beta1: 100e9, Beta2: 40e9},
		{Name: "L3", Size: 1 << 20, Line: 128, Beta1: 20e9, Beta2: 8e9},
		{Name: "L4", Size: 4 << 20, Line: 128, Beta1: 10e9, Beta2: 4e9},
	}
	paper := []machine.Level{{Name: "cache", Size: 256 << 10, Line: 128, Beta1: 1.06e9, Beta2: 0.85e9}}
	ns := []int{1 << 16, 1 << 18}
	if testing.Short() || runtime.GOOS == "js" { // WebAssembly runs it several times slower
		ns = ns[:1]
	}
	for _, levels := range [][]machine.Level{four, paper} {
		for _, n := range ns {
			for _, wlog := range []uint{0, 2, 3} {
				for seed := uint64(1); seed <= 2; seed++ {
					name := fmt.Sprintf("%d levels/n=%d/w=%d/seed %d", len(levels), n, 1<<wlog, seed)
					t.Run(name, func(t *testing.T) {
						c := Config{Levels: levels}
						s, err := New(c)
						if err != nil {
							t.Fatal(err)
						}
						newPermTrace(n, wlog, 128, seed).run(s)
						s.Finish()
						want, tw, err := PermProduct(c, int64(n), 1<<wlog)
						if err != nil {
							t.Fatal(err)
						}
						got := s.Levels()
						for i, p := range want {
							g := got[i]
							check(t, p.Level.Name+" fills", float64(g.Misses), p.Fills, 0.05)
							check(t, p.Level.Name+" sequential fills", float64(g.SeqFills), p.SeqFills, 0.10)
							check(t, p.Level.Name+" write-backs", float64(g.Writebacks), p.Writebacks, 0.01)
						}
						check(t, "seconds", s.Result().Seconds, tw, 0.05)
					})
				}
			}
		}
	}
}

func check(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*want {
		t.Errorf("%s: simulated %.6g, closed form %.6g (%+.1f%%, tolerance %.0f%%)", what, got, want, 100*(got/want-1), 100*tol)
	}
}

// TestPermProductLimits: with caches far smaller than Y, the last level's
// time is the MBRAM paper's traditional form (3w/β1 + B/β2)·N; with
// everything in the first level, only the compulsory lines are filled.
func TestPermProductLimits(t *testing.T) {
	const n, w = 1 << 24, 4
	l := machine.Level{Name: "cache", Size: 64 << 10, Line: 128, Beta1: 1.06e9, Beta2: 0.85e9}
	p, sec, err := PermProduct(Config{Levels: []machine.Level{l}}, n, w)
	if err != nil {
		t.Fatal(err)
	}
	paper := (3*w/l.Beta1 + float64(l.Line)/l.Beta2) * n
	if math.Abs(sec/paper-1) > 0.01 || p[0].HitY > 0.005 {
		t.Errorf("%.4g s, the paper's form %.4g s; hit %.4f", sec, paper, p[0].HitY)
	}
	big := machine.Level{Name: "cache", Size: 64 << 20, Line: 64, Beta1: 1e10, Beta2: 5e9}
	p, _, _ = PermProduct(Config{Levels: []machine.Level{big}}, 1<<16, 4)
	if math.Abs(p[0].Fills-3*4096) > 1 || p[0].HitY != 1 && p[0].Window != 1<<16 {
		t.Errorf("everything in the cache: %+v", p[0])
	}
	if _, _, err := PermProduct(Config{Levels: []machine.Level{l}}, n, 3); err == nil {
		t.Error("w = 3 accepted")
	}
}
