package hier

import (
	"math"
	"testing"

	"memwall/engine/mbram"
)

// TestMatmulTranslationHandCalculations: the matrix product's reads of Q
// on a machine whose curve has page walks of 0 at 16 KiB and 16 ns at
// 1 GiB, 16 doublings on, so that the walk at a span is log2(span/16 KiB)
// ns. Worked by hand:
//   - n = 2000, 4-byte entries: a row is 8000 B, past a page, so the
//     column's 2000 reads lie on 2000 pages, a span of 2000·4096 =
//     8 192 000 B, log2(500) = 8.96578 ns a read, 8·10⁹ reads: 71.726 s;
//   - n = 512: a row is 2048 B, two to a page, a span of 512·2048 B =
//     1 MiB, log2(64) = 6 ns a read for the half of the 512³ reads that
//     enter a page (the other half find the translation the read before
//     left), 67 108 864 reads: 0.402653 s.
//
// A machine without walks in its curve is charged none, and the rest of
// the prediction does not change.
func TestMatmulTranslationHandCalculations(t *testing.T) {
	walked := withCurve()
	walked.Distribution[1].Walk = 16e-9
	for _, c := range []struct {
		n    int64
		want float64
	}{
		{2000, 8e9 * math.Log2(500) * 1e-9},
		{512, 67108864 * 6e-9},
	} {
		p := mbram.DefaultParams(c.n)
		p.W = 4
		e, err := Model(walked, "matmul", p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Translation-c.want) > 1e-9*c.want {
			t.Errorf("n=%d: translation %g s, want %g", c.n, e.Translation, c.want)
		}
		plain, err := Model(withCurve(), "matmul", p)
		if err != nil {
			t.Fatal(err)
		}
		if plain.Translation != 0 || math.Abs(e.Seconds-plain.Seconds-c.want) > 1e-9*c.want {
			t.Errorf("n=%d: %g s with walks, %g without (translation %g); want them %g apart", c.n, e.Seconds, plain.Seconds, plain.Translation, c.want)
		}
	}
}
