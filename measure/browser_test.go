package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"memwall/engine/machine"
)

// A short stepwise calibration runs every step one at a time, never for
// long, and gives a machine with the ordering the model needs.
func TestStepsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("calibration skipped in -short mode")
	}
	s := NewSteps(StepOptions{Buffer: 64 << 20, Short: true})
	if s.BufferBytes() != 64<<20 {
		t.Fatalf("buffer %d B, want 64 MiB", s.BufferBytes())
	}
	total := s.Total()
	if p := s.Progress(); p.Done != 0 || p.Total != total || p.Step == "done" {
		t.Fatalf("first progress %+v", p)
	}
	var longest time.Duration
	var longestStep string
	for n := 0; ; n++ {
		before := s.Progress()
		t0 := time.Now()
		p, more, err := s.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d > longest {
			longest, longestStep = d, before.Step
		}
		if p.Done != n+1 || p.Total != total {
			t.Fatalf("after step %d: progress %+v", n+1, p)
		}
		if !more {
			if p.Step != "done" || n+1 != total {
				t.Fatalf("ended after %d of %d steps: %+v", n+1, total, p)
			}
			break
		}
	}
	t.Logf("%d steps in %v; longest %v (%s)", total, s.Elapsed(), longest, longestStep)
	// The point of the cut: no step holds a page for long. Natively a step
	// takes tens of milliseconds; a second allows for a loaded machine.
	if longest > time.Second {
		t.Errorf("the longest step took %v (%s)", longest, longestStep)
	}
	r, err := s.Result()
	m := r.Machine
	t.Logf("beta1 %.3g B/s, beta2 %.3g B/s, C %d B, B %d B, m %.3g s; warnings %q", m.Beta1, m.Beta2, m.C, m.B, m.M, r.Warnings)
	if err != nil {
		t.Fatal(err)
	}
	if !(m.Beta1 > m.Beta2 && m.Beta2 > 0) {
		t.Errorf("want beta1 > beta2 > 0")
	}
	if len(r.Latency) != len(s.LatencySizes()) || len(r.Throughput) != len(s.ThroughputSizes()) {
		t.Errorf("curves have %d and %d points, want %d and %d", len(r.Latency), len(r.Throughput), len(s.LatencySizes()), len(s.ThroughputSizes()))
	}
	if last := r.Latency[len(r.Latency)-1]; last.Size > latencyMax || last.Latency.Median <= r.Latency[0].Latency.Median {
		t.Errorf("latency curve from %+v to %+v", r.Latency[0], last)
	}
	if m.M < 0.1e-9 || m.M > 100e-9 {
		t.Errorf("m = %g s", m.M)
	}
	// The distribution curve: every size, and a scatter over the largest
	// arrays (32 MiB each, beyond any cache here) no cheaper than over
	// the smallest (16 KiB, in L1).
	if len(m.Levels) > 0 {
		d := m.Distribution
		if len(r.Distribution) != len(s.dist.sizes) || len(d) != len(s.dist.sizes) || d[len(d)-1].Size != 32<<20 {
			t.Fatalf("distribution curve of %d points (%d in the machine), want %d to 32 MiB", len(r.Distribution), len(d), len(s.dist.sizes))
		}
		if d[len(d)-1].Scatter < d[0].Scatter {
			t.Errorf("scatter %g s a line at 32 MiB, %g at 16 KiB", d[len(d)-1].Scatter, d[0].Scatter)
		}
		// The heap walk: half the buffer, 2^23 − 1 keys (32 MiB), when
		// that is four times this machine's last cache; a walk down it
		// slower than its steps at heapsort's core rate, and memory's
		// latency beside it (TestBrowserWalk runs it whatever the cache).
		if m.C <= 8<<20 {
			w := r.Walk
			if w == nil || w.Keys != 1<<23-1 || w.Steps != 22 || !w.StepFromRate || !(w.PerWalk.Min > float64(w.Steps)*w.PerStep.Median) || !(w.MemLatency.Min > 0) {
				t.Fatalf("heap walk %+v", w)
			}
			t.Logf("heap walk: %.3g s a walk, %.3g s a step, %.3g s a chased read; walk_in_flight %g", w.PerWalk.Median, w.PerStep.Median, w.MemLatency.Median, m.WalkInFlight)
		}
		// The gather curve at the spans from the last cache on that the
		// buffer holds (gatherSpans), a read over the widest slower than
		// over the cache's own size.
		if spans := gatherSpans(m.C, m.C, 64<<20, gatherFrom(m.Levels)); len(spans) >= 2 {
			g := m.GatherCurve
			if len(g) != len(spans) || g[0].Span != spans[0] || g[len(g)-1].Span != spans[len(spans)-1] || !(g[len(g)-1].Read > g[0].Read) {
				t.Errorf("gather curve %+v, want the spans %v, slower at the widest", g, spans)
			}
			t.Logf("gather curve: %+v", g)
		}
	}
}

// Cancelling stops the next step with the context's error and leaves the
// calibration where it was.
func TestStepsCancel(t *testing.T) {
	s := NewSteps(StepOptions{Buffer: 1 << 20, Short: true})
	if _, _, err := s.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, more, err := s.Next(ctx)
	if !errors.Is(err, context.Canceled) || !more || p.Done != 1 {
		t.Errorf("cancelled Next: %+v, %v, %v", p, more, err)
	}
	if _, err := s.Result(); err == nil {
		t.Error("Result of an unfinished calibration")
	}
}

// The buffer is rounded down to a power of two, at least 1 MiB.
func TestStepsBuffer(t *testing.T) {
	for _, c := range []struct{ in, want int64 }{{0, 1 << 20}, {3 << 20, 2 << 20}, {256 << 20, 256 << 20}, {300 << 20, 256 << 20}} {
		if got := NewSteps(StepOptions{Buffer: c.in, Short: true}).BufferBytes(); got != c.want {
			t.Errorf("Buffer %d: %d, want %d", c.in, got, c.want)
		}
	}
}

// interleave keeps each list's order and spreads the second evenly: with
// four curve samples and two others, one other after every two curve
// samples (worked by hand); an empty list leaves the other as it is.
func TestInterleave(t *testing.T) {
	jobs := func(prefix string, n int) []stepJob {
		var js []stepJob
		for i := 0; i < n; i++ {
			js = append(js, stepJob{name: fmt.Sprintf("%s%d", prefix, i)})
		}
		return js
	}
	for _, c := range []struct {
		a, b int
		want string
	}{
		{4, 2, "a0 a1 b0 a2 a3 b1"},
		{3, 3, "a0 b0 a1 b1 a2 b2"},
		{2, 5, "a0 b0 b1 a1 b2 b3 b4"},
		{0, 2, "b0 b1"},
		{2, 0, "a0 a1"},
	} {
		var names []string
		for _, j := range interleave(jobs("a", c.a), jobs("b", c.b)) {
			names = append(names, j.name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("interleave(%d, %d) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// The browser's plan spreads the bandwidth and branch samples over the
// curves, as Calibrate does: the first random-line sample runs before
// the random-read curve starts and the last after the sequential-line
// curve has begun, and every warm-up comes before its kind's timed rounds.
func TestStepsSpreadSamples(t *testing.T) {
	s := NewSteps(StepOptions{Buffer: 1 << 20})
	first, last := map[string]int{}, map[string]int{}
	for i, j := range s.jobs {
		for _, k := range []string{"random-line bandwidth", "random-read throughput curve", "sequential-line curve", "branch misprediction, warm-up", "branch misprediction, round", "branch misprediction, preparing"} {
			if strings.HasPrefix(j.name, k) {
				if _, ok := first[k]; !ok {
					first[k] = i
				}
				last[k] = i
			}
		}
	}
	if !(first["random-line bandwidth"] < first["random-read throughput curve"] && last["random-line bandwidth"] > first["sequential-line curve"]) {
		t.Errorf("random-line samples at %d..%d; the throughput curve starts at %d, the sequential-line curve at %d",
			first["random-line bandwidth"], last["random-line bandwidth"], first["random-read throughput curve"], first["sequential-line curve"])
	}
	if !(first["branch misprediction, preparing"] < first["branch misprediction, warm-up"] && last["branch misprediction, warm-up"] < first["branch misprediction, round"]) {
		t.Errorf("branch steps out of order: %v %v", first, last)
	}
}

// The line size comes off each offset's fastest round, in the browser as
// natively. The samples below are a short run's two rounds through L2 on
// a busy host (seconds per node): the step to a second miss is at 64 B
// (4.1 to 7.9 ns, 1.9 times); one round of 256 B was slowed tenfold by
// other work. A median of the two rounds (the browser's old rule) jumps
// 5.5 times at 256 B and reads 256 B lines.
func TestLineFoundFastestRound(t *testing.T) {
	s := &Steps{
		lineOffs: []int64{8, 16, 32, 64, 128, 256},
		linePts: [][]float64{
			{4.0e-9, 4.1e-9}, {4.1e-9, 4.0e-9}, {4.1e-9, 4.2e-9},
			{7.9e-9, 8.0e-9}, {8.0e-9, 8.1e-9}, {8.1e-9, 81e-9},
		},
	}
	pts, line := s.lineFound()
	if line != 64 {
		t.Errorf("line %d B, want 64", line)
	}
	if len(pts) != 6 || pts[5].Time.Min != 8.1e-9 {
		t.Errorf("points %+v", pts)
	}
	// Without a step of 1.2 times, no line size (the caller uses 64 B).
	flat := &Steps{lineOffs: []int64{8, 16}, linePts: [][]float64{{4e-9}, {4.4e-9}}}
	if _, line := flat.lineFound(); line != 0 {
		t.Errorf("flat points: line %d, want 0", line)
	}
}

// The browser's heap walk, step by step, on a last cache of 1 MiB and a
// buffer of 16 MiB: a heap of 2^21 − 1 keys (8 MiB, eight times the
// cache, half the buffer), built in parts into a heap, the chase's cycle
// at the buffer's other end, two rounds, and the step at heapsort's core
// rate (12 operations at 3e9/s: 4 ns). A cache of 4 MiB, for which the
// heap is under four times it, skips the walk.
func TestBrowserWalk(t *testing.T) {
	buf := make([]uint64, 2<<20)
	var w browserWalk
	w.setup(buf, 1<<20)
	if len(w.heap) != 1<<21-1 || len(w.chain) != 1<<20-1 {
		t.Fatalf("setup: heap %d keys, chain %d words", len(w.heap), len(w.chain))
	}
	for p := range browserWalkBuildParts {
		w.build(p)
	}
	for i := 1; i < len(w.heap); i++ {
		if w.heap[i] > w.heap[(i-1)/2] {
			t.Fatalf("key %d above its parent after the build's parts", i)
		}
	}
	w.cycle()
	for range 2 {
		if err := w.round(context.Background(), true); err != nil {
			t.Fatal(err)
		}
	}
	m := machine.Machine{CoreRates: map[string]float64{"heapsort": 3e9}}
	r, ok := w.result(m)
	if !ok || r.Keys != 1<<21-1 || r.Steps != 20 || !r.StepFromRate || math.Abs(r.PerStep.Median-4e-9) > 1e-18 ||
		len(r.PerWalk.Samples) != 2 || !(r.PerWalk.Min > 0) || len(r.MemLatency.Samples) != 2 || !(r.MemLatency.Min > 0) {
		t.Errorf("result %+v %v", r, ok)
	}
	if _, ok := w.result(machine.Machine{}); ok {
		t.Error("a machine with no rate gave a walk")
	}
	var near browserWalk
	near.setup(buf, 4<<20)
	if near.heap != nil {
		t.Error("a heap of 8 MiB beside a cache of 4 MiB was walked")
	}
	if _, ok := near.result(m); ok {
		t.Error("a skipped walk gave a result")
	}
}

// TestResolvedOutlastsTheTick: a sample timed on a browser's clock must
// last long enough for the clock to resolve it. The fake clock reads in
// 100 µs ticks and, at worst, a tick short (a run that starts just before
// a tick and ends just after one). The chase over 4 KiB at 2 ns a step
// and the floor count of 100 000 steps last 200 µs, which such a clock
// reads as 100 µs, 1.0 ns a step (the reading of the CI run that made
// a 4.4 KiB level); resolved must time it again for MinSample and come
// within what this clock can miss over MinSample, two ticks in 5 ms, 4 %,
// of the true time. The other cases
// are a loop so fast that its floor count reads zero ticks, a first
// size whose floor count the clock resolves (run again all the same:
// its first run is the loop's first call), and estimates that are right,
// too small, and too large.
func TestResolvedOutlastsTheTick(t *testing.T) {
	const tick = 100e-6
	clock := func(seconds float64) float64 { // the worst reading of a run
		return math.Max(0, math.Floor(seconds/tick)-1) * tick
	}
	s := &Steps{o: StepOptions{MinSample: 5 * time.Millisecond}}
	cases := []struct {
		name            string
		cost, est       float64 // seconds a unit: true, and the estimate
		lo, hi, maxRuns int
	}{
		{"chase, first size", 2e-9, 0, 100_000, 20_000_000, 2},
		{"random reads, first size, under a tick", 0.3e-9, 0, 200_000, 40_000_000, 3},
		{"first size, resolved at the floor count, is run again", 100e-9, 0, 100_000, 20_000_000, 2},
		{"estimate right", 2e-9, 2e-9, 100_000, 20_000_000, 1},
		{"estimate 10x small", 20e-9, 2e-9, 100_000, 20_000_000, 1},
		{"estimate 10x large", 2e-9, 20e-9, 100_000, 20_000_000, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs := 0
			got, err := s.resolved(c.est, c.lo, c.hi, func(n int) (float64, error) {
				runs++
				return clock(float64(n)*c.cost) / float64(n), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got/c.cost-1) > 0.04 {
				t.Errorf("read %.3g s a unit, want %.3g within 4%%", got, c.cost)
			}
			if runs > c.maxRuns || c.est == 0 && runs < 2 {
				t.Errorf("%d runs, want at most %d, and two or more without an estimate", runs, c.maxRuns)
			}
		})
	}
	// The floor count alone, as the curves sized their first run before,
	// reads the chase at half its time.
	if one := clock(100_000*2e-9) / 100_000; math.Abs(one/2e-9-1) < 0.25 {
		t.Fatalf("the fake clock resolves the floor count (%.3g s a step); the test checks nothing", one)
	}
}
