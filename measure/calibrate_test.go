package measure

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
)

var (
	quickOnce sync.Once
	quickRes  Result
	quickErr  error
)

// quick runs one quick calibration shared by the self-checks.
func quick(t *testing.T) Result {
	t.Helper()
	if testing.Short() {
		t.Skip("calibration skipped in -short mode")
	}
	quickOnce.Do(func() { quickRes, quickErr = Calibrate(context.Background(), Options{Quick: true}) })
	if quickErr != nil {
		t.Fatalf("quick calibration: %v", quickErr)
	}
	return quickRes
}

// Self-checks of the issue: beta1 > beta2 > 0; B equals the OS's line size;
// C within a factor of two of the OS's last cache; 1 ns <= m <= 50 ns.
func TestSelfChecks(t *testing.T) {
	r := quick(t)
	m := r.Machine
	t.Logf("beta1 %.3g B/s, beta2 %.3g B/s, C %d B, B %d B, m %.3g s; OS: %+v", m.Beta1, m.Beta2, m.C, m.B, m.M, r.OS)
	if !(m.Beta1 > m.Beta2 && m.Beta2 > 0) {
		t.Errorf("want beta1 > beta2 > 0; got beta1 = %g, beta2 = %g", m.Beta1, m.Beta2)
	}
	if r.OS.Line > 0 && r.Detected.Line != r.OS.Line {
		t.Errorf("detected line size %d B, the OS reports %d B (offsets: %+v)", r.Detected.Line, r.OS.Line, r.Line)
	}
	if r.OS.LastCache > 0 {
		ratio := float64(r.Detected.Cache) / float64(r.OS.LastCache)
		switch {
		case ratio >= 0.5 && ratio <= 2:
		case r.OS.Virtual:
			// Under a hypervisor the last cache is shared with other
			// guests and page walks are two-level (see DetectCache): the
			// check cannot hold the measurement to the host's cache size.
			t.Logf("virtual machine: detected last cache %d B, the OS reports %d B (ratio %.2f); not held to the factor of two", r.Detected.Cache, r.OS.LastCache, ratio)
		default:
			t.Errorf("detected last cache %d B, the OS reports %d B (ratio %.2f, want 0.5 to 2)", r.Detected.Cache, r.OS.LastCache, ratio)
		}
	}
	if m.M < 1e-9 || m.M > 50e-9 {
		t.Errorf("misprediction penalty %g s, want 1 to 50 ns", m.M)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("machine does not validate: %v", err)
	}
	for _, k := range []string{"cpu", "memory", "date", "go"} {
		if m.Notes[k] == "" {
			t.Errorf("note %q missing", k)
		}
	}
	for _, k := range []string{"beta1", "beta2", "cache", "mispredict"} {
		if v, ok := m.Spread[k]; !ok || math.IsNaN(v) || v < 0 {
			t.Errorf("spread %q = %v, %v", k, v, ok)
		}
	}
}

// A cancelled context stops a calibration with the context's error.
func TestCalibrateCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Calibrate(ctx, Options{Quick: true, MaxBytes: 8 << 20, Progress: func(p Progress) {
		calls++
		if calls == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// DetectCache on synthetic curves made by the hit-rate model it assumes,
// for caches of several sizes; the answer must come back within a step of
// the size grid.
func TestDetectCacheSynthetic(t *testing.T) {
	for _, c := range []float64{256 << 10, 8 << 20, 105 << 20} {
		var curve []LatencyPoint
		for _, s := range latencySizes(4<<10, int64(16*c), 4) {
			l := 1.0
			switch {
			case float64(s) > c:
				l = 100 - 80*c/float64(s)
			case float64(s) > c/16:
				l = 20
			}
			curve = append(curve, LatencyPoint{Size: s, Latency: Stat{Median: l, Min: l}})
		}
		got := float64(DetectCache(curve, 64))
		if r := got / c; r < 0.9 || r > 1.1 {
			t.Errorf("cache %g: detected %g", c, got)
		}
	}
	if got := DetectCache(nil, 64); got != 0 {
		t.Errorf("empty curve: %d, want 0", got)
	}
}

func TestSummarize(t *testing.T) {
	// Quartiles of 1..5 by linear interpolation are 2 and 4: spread 2/3.
	s := Summarize([]float64{5, 1, 3, 2, 4})
	if s.Median != 3 || math.Abs(s.Spread-2.0/3) > 1e-12 || s.Min != 1 || s.Max != 5 {
		t.Errorf("Summarize(1..5) = %+v", s)
	}
	if z := Summarize(nil); z.Median != 0 || z.Spread != 0 {
		t.Errorf("Summarize(nil) = %+v", z)
	}
}

func TestParseSysfsSize(t *testing.T) {
	for in, want := range map[string]int64{"48K": 48 << 10, "107520K": 107520 << 10, "2M": 2 << 20, "64": 64, "x": 0, "-1K": 0} {
		if got := parseSysfsSize(in); got != want {
			t.Errorf("parseSysfsSize(%q) = %d, want %d", in, got, want)
		}
	}
}
