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

// TestStatSteady reads the highest value one sample in ten reaches: the
// (n/10+1)-th largest, counted by hand for each case, so that one or two
// samples of a fast spell among 21 do not set it.
func TestStatSteady(t *testing.T) {
	ramp := func(n int) []float64 { // 1..n in a shuffled order
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64((i*7)%n + 1)
		}
		return xs
	}
	spell := append(ramp(19), 30, 40) // 21 samples, two of a spell
	for _, tc := range []struct {
		name string
		st   Stat
		want float64
	}{
		{"one sample", Summarize([]float64{5}), 5},
		{"nine: the largest", Summarize(ramp(9)), 9},
		{"ten: the second largest", Summarize(ramp(10)), 9},
		{"21 with a spell of two: the third largest", Summarize(spell), 19},
		{"60: the seventh largest", Summarize(ramp(60)), 54},
		{"no samples kept: Max", Stat{Max: 4, Median: 2}, 4},
		{"none at all", Stat{}, 0},
	} {
		if got := tc.st.Steady(); got != tc.want {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}
