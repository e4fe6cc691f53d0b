package measure

import "testing"

// TestStatRound takes one round of a point: its r-th sample as both the
// median and the least, and the point's median for a round it has no
// sample of (roundsOf does the same).
func TestStatRound(t *testing.T) {
	st := Summarize([]float64{3, 1, 2}) // median 2
	for _, tc := range []struct {
		r    int
		want float64
	}{{0, 3}, {1, 1}, {2, 2}, {5, 2}} {
		got := st.round(tc.r)
		if got.Median != tc.want || got.Min != tc.want || len(got.Samples) != 0 {
			t.Errorf("round %d: %+v, want median and min %g", tc.r, got, tc.want)
		}
	}
}
