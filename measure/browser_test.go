package measure

import (
	"context"
	"errors"
	"testing"
	"time"
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
