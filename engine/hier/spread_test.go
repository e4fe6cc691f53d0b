package hier

import (
	"math"
	"testing"

	"memwall/engine/mbram"
)

// TestSpreadTranslationHandCalculations: the permutation products' reads
// of Y on the two-level machine (L1 32 KiB, L2 1 MiB, last cache 1 MiB)
// with page walks of 0 at 16 KiB and 16 ns at 1 GiB, 16 doublings on, so
// that the walk at a span s is log2(s/16 KiB) ns and the translation
// buffer's reach, where it passes 1 ns, is 32 KiB. A random read across s
// waits for the walk times the share past the reach, log2(s/16 KiB)·
// (1 − 32 KiB/s) ns. Calibration reads L1 at 16 KiB (no walk), L2 at
// √(32 KiB·1 MiB) = 2^17.5 B (3.5·(1 − 2^−2.5) = 2.881282 ns) and memory
// at 8 MiB (9·(1 − 1/256) = 8.964844 ns). Worked by hand:
//   - perm, N = 2^22 (Y 16 MiB: 10·(1 − 2^−9) = 9.980469 ns a read):
//     2^−9 of the reads hit L1, 1/16 − 2^−9 L2, 15/16 memory:
//     2^−9·9.980469 + 0.060547·(9.980469 − 2.881282) +
//     0.9375·(9.980469 − 8.964844) = 1.401475 ns, 2^22 reads: 5.878213 ms;
//   - perm-twopass, N = 2^22, blocks of 1 MiB/2/4 = 2^17 keys, so phase
//     II reads across 512 KiB (5·(1 − 1/16) = 4.6875 ns): 1/16 in L1, the
//     rest in L2: 4.6875/16 + 0.9375·(4.6875 − 2.881282) = 1.986299 ns,
//     8.331140 ms;
//   - perm, N = 2^12 (Y 16 KiB, within the reach): none.
//
// A machine without walks in its curve is charged none, and the rest of
// the prediction does not change.
func TestSpreadTranslationHandCalculations(t *testing.T) {
	walked := withCurve()
	walked.Distribution[1].Walk = 16e-9
	plain := withCurve()
	for _, c := range []struct {
		kernel string
		n      int64
		want   float64
	}{
		{"perm", 1 << 22, 5.8782127836e-3},
		{"perm-twopass", 1 << 22, 8.3311398756e-3},
		{"perm", 1 << 12, 0},
	} {
		p := mbram.DefaultParams(c.n)
		p.W = 4
		e, err := Model(walked, c.kernel, p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Spread-c.want) > 1e-9*c.want {
			t.Errorf("%s n=%d: spread translation %g s, want %g", c.kernel, c.n, e.Spread, c.want)
		}
		without, err := Model(plain, c.kernel, p)
		if err != nil {
			t.Fatal(err)
		}
		if without.Spread != 0 {
			t.Errorf("%s n=%d: %g s of translation on a machine without walks", c.kernel, c.n, without.Spread)
		}
		if got := e.Seconds - e.Spread; math.Abs(got-without.Seconds) > 1e-12*without.Seconds {
			t.Errorf("%s n=%d: the rest of the prediction moved, %g s against %g without walks", c.kernel, c.n, got, without.Seconds)
		}
	}
}
