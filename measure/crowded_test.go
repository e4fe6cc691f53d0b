package measure

import (
	"context"
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// TestCrowdedIndices: the crowded cycle reads the first word of pages 0,
// 1, 2, … (512 words apart), the packed one lines 0 to 63 side by side
// (8 words apart) over and over, each crowdedLines long.
func TestCrowdedIndices(t *testing.T) {
	c, p := crowdedIndices()
	if len(c) != crowdedLines || len(p) != crowdedLines {
		t.Fatalf("lengths %d and %d, want %d", len(c), len(p), crowdedLines)
	}
	for k := range c {
		if c[k] != int32(512*k) || p[k] != int32(8*(k%64)) {
			t.Fatalf("index %d: crowded %d, packed %d; want %d and %d", k, c[k], p[k], 512*k, 8*(k%64))
		}
	}
}

// TestCrowdedRounds: the rounds run in a buffer of 512 pages and give a
// time a read that is no negative and under a microsecond (a read that
// misses every cache takes some 100 ns); a smaller buffer is refused.
func TestCrowdedRounds(t *testing.T) {
	buf := make([]uint64, crowdedLines*machine.WalkPage/8)
	r, err := crowdedRounds(context.Background(), buf, crowdedReads, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lines != crowdedLines || len(r.PerRead.Samples) != 2 || r.PerRead.Median < 0 || r.PerRead.Median > 1e-6 {
		t.Errorf("result %+v", r)
	}
	if _, err := crowdedRounds(context.Background(), buf[:len(buf)-1], crowdedReads, 1); err == nil || !strings.Contains(err.Error(), "holds no 512 pages") {
		t.Errorf("a short buffer: %v", err)
	}
}

// TestSetCrowdedRead: a median of 1.85 ns a read sets the field (to
// three figures), its spread and a note; 0 leaves it unset and says why.
func TestSetCrowdedRead(t *testing.T) {
	m := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	r := CrowdedResult{Lines: 512, PerRead: Summarize([]float64{1.8e-9, 1.851e-9, 1.9e-9})}
	if why := setCrowdedRead(&m, r); why != "" || math.Abs(m.CrowdedRead-1.85e-9) > 1e-18 || !(m.Spread["crowded_read"] > 0) || !strings.Contains(m.Notes["crowded_read"], "512 lines 4 KiB apart") {
		t.Errorf("set: %g, spread %g, note %q, why %q", m.CrowdedRead, m.Spread["crowded_read"], m.Notes["crowded_read"], why)
	}
	m2 := machine.Machine{Spread: map[string]float64{}, Notes: map[string]string{}}
	if why := setCrowdedRead(&m2, CrowdedResult{Lines: 512, PerRead: Summarize([]float64{0, 0, 0})}); m2.CrowdedRead != 0 || !strings.Contains(why, "crowded_read not set") {
		t.Errorf("no crowding: %g, why %q", m2.CrowdedRead, why)
	}
}
