package lang

import (
	"context"
	"math"
	"os"
	goruntime "runtime"
	"testing"

	"memwall/engine/sim"
	"memwall/presets"
)

// TestExtrapolation predicts quicksort and heapsort at a size 32 times the
// largest simulated one and compares with the direct simulation there.
// MEMWALL_LONG=1 runs the full-size check (2^22 from sizes up to 2^17,
// a minute); the default predicts 2^20 from sizes up to 2^15.
func TestExtrapolation(t *testing.T) {
	if goruntime.GOOS == "js" {
		t.Skip("minutes of simulation in WebAssembly; the browser's prediction is checked against the native one by e2e's TestProgramPredict")
	}
	m, _ := presets.Machine("p4-1.7-pc133")
	at, max := int64(1<<20), int64(1<<15)
	if os.Getenv("MEMWALL_LONG") != "" {
		at, max = 1<<22, 1<<17
	}
	for _, id := range []string{"quicksort", "heapsort"} {
		ex, _ := LookupExample(id)
		p, err := Compile(ex.Source)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := p.Predict(context.Background(), m, sim.Majority, PredictOptions{At: at, Max: max, Min: 256, Budget: 1 << 40})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		direct, err := p.Run(context.Background(), m, sim.Majority, Options{Params: map[string]int64{"N": at}})
		if err != nil {
			t.Fatal(err)
		}
		rel := math.Abs(pr.Seconds-direct.Seconds) / direct.Seconds
		t.Logf("%s at N = %d: predicted %.6g s (%s; held out max %.2f%%; %d points, largest %d; %s), simulated %.6g s: %.2f%% off",
			id, at, pr.Seconds, pr.Model(), 100*pr.HeldOutMax, len(pr.Points), pr.Points[len(pr.Points)-1].Size, pr.Note, direct.Seconds, 100*rel)
		if rel > 0.05 {
			t.Errorf("%s: prediction %.2f%% off the direct simulation (want within 5%%)", id, 100*rel)
		}
	}
}
