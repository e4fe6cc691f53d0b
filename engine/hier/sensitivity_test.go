package hier

import (
	"math"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/presets"
)

// flatCurve is the development machine's preset with a distribution
// curve that costs the same at every size: count 28 ns and scatter 56 ns
// a line of keys, its 33 streams kept, and spreads on the curve's two
// loops and on a rate the counting radix sort does not use.
func flatCurve(t *testing.T) machine.Machine {
	t.Helper()
	m, ok := presets.Machine("xeon-kvm-2vcpu")
	if !ok || m.Streams != 33 {
		t.Fatalf("preset xeon-kvm-2vcpu: found %v, streams %d, want 33", ok, m.Streams)
	}
	m.Distribution = []machine.DistPoint{{Size: 16 << 10, Count: 28e-9, Scatter: 56e-9}, {Size: 8 << 30, Count: 28e-9, Scatter: 56e-9}}
	m.Spread = map[string]float64{"distribution.count": 0.02, "distribution.scatter": 0.02, "core_rates.heapsort": 0.05}
	return m
}

// TestSensitivityRadixCount: the counting radix sort of 2^29 keys with 64
// buckets makes five passes over 2^25 lines of keys, the digits 64, 64,
// 64, 64 and 32 buckets. Each counts at 28 ns a line; the four into 64
// buckets scatter at 56 ns, the one into 32 (fewer than the 33 streams)
// at the count's 28. By hand, with spreads of 2 %:
//   - scatter up: 4 · 2^25 · 56 ns · 0.02 = 0.150324 s; down: the same
//     times (1/1.02 − 1)/0.02, −0.147377 s;
//   - count up: (5 + 1) · 2^25 · 28 ns · 0.02 = 0.112743 s (the pass into
//     32 buckets scatters at the count's time, so it moves twice);
//   - the heapsort's rate moves nothing.
func TestSensitivityRadixCount(t *testing.T) {
	m := flatCurve(t)
	e, sh, err := Sensitivity(m, "radix-count", mbram.DefaultParams(1<<29))
	if err != nil {
		t.Fatal(err)
	}
	lines := float64(1 << 25)
	want := map[string][2]float64{
		"core_rates.heapsort":  {0, 0},
		"distribution.count":   {6 * lines * 28e-9 * (1/1.02 - 1), 6 * lines * 28e-9 * 0.02},
		"distribution.scatter": {4 * lines * 56e-9 * (1/1.02 - 1), 4 * lines * 56e-9 * 0.02},
	}
	if len(sh) != len(want) {
		t.Fatalf("%d shifts, want %d: %+v", len(sh), len(want), sh)
	}
	var sum float64
	for _, s := range sh {
		w, ok := want[s.Param]
		if !ok {
			t.Errorf("unexpected shift %+v", s)
			continue
		}
		if math.Abs(s.Down-e.Seconds-w[0]) > 1e-6 || math.Abs(s.Up-e.Seconds-w[1]) > 1e-6 {
			t.Errorf("%s: moves %.6f and %.6f s, want %.6f and %.6f", s.Param, s.Down-e.Seconds, s.Up-e.Seconds, w[0], w[1])
		}
		sum += w[1] * w[1] // up is the larger move of each
	}
	if got, want := Uncertainty(e.Seconds, sh), math.Sqrt(sum)/e.Seconds; math.Abs(got-want) > 1e-9 {
		t.Errorf("Uncertainty = %.6f, want %.6f", got, want)
	}
}

// TestGapUncertainty: one parameter that moves both predictions alike
// leaves their gap; one that moves only one moves the gap by its move;
// independent parameters add in quadrature. Seconds by hand.
func TestGapUncertainty(t *testing.T) {
	sh := func(p string, down, up float64) Shift { return Shift{Param: p, Spread: 0.1, Down: down, Up: up} }
	for _, tc := range []struct {
		name   string
		a      float64
		as     []Shift
		b      float64
		bs     []Shift
		want   float64
		wantUa float64
	}{
		{"alike", 10, []Shift{sh("x", 9, 11)}, 12, []Shift{sh("x", 11, 13)}, 0, 0.1},
		{"one side", 10, []Shift{sh("x", 9, 11)}, 12, nil, 1, 0.1},
		{"opposite", 10, []Shift{sh("x", 9, 11)}, 12, []Shift{sh("x", 13, 11)}, 2, 0.1},
		// x moves the gap by 0.5 up (10.5 − 10 against 12 → 12), y by 1.2
		// down on b alone: √(0.25 + 1.44) = 1.3.
		{"two", 10, []Shift{sh("x", 10, 10.5)}, 12, []Shift{sh("x", 12, 12), sh("y", 10.8, 12.4)}, 1.3, 0.05},
		{"none", 10, nil, 12, nil, 0, 0},
	} {
		if got := GapUncertainty(tc.a, tc.as, tc.b, tc.bs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: GapUncertainty = %v, want %v", tc.name, got, tc.want)
		}
		if got := Uncertainty(tc.a, tc.as); math.Abs(got-tc.wantUa) > 1e-12 {
			t.Errorf("%s: Uncertainty = %v, want %v", tc.name, got, tc.wantUa)
		}
	}
	if Uncertainty(0, []Shift{sh("x", 1, 2)}) != 0 {
		t.Error("Uncertainty of a zero prediction is not 0")
	}
}

// TestSensitivityWithoutSpreads: a machine from specifications, with no
// spreads, has no shifts and the model's own estimate.
func TestSensitivityWithoutSpreads(t *testing.T) {
	m := flatCurve(t)
	m.Spread = nil
	e, sh, err := Sensitivity(m, "heapsort", mbram.DefaultParams(1<<20))
	if err != nil || len(sh) != 0 {
		t.Fatalf("shifts %+v, err %v; want none", sh, err)
	}
	if want, _ := Model(m, "heapsort", mbram.DefaultParams(1<<20)); e.Seconds != want.Seconds {
		t.Errorf("estimate %v s, want Model's %v", e.Seconds, want.Seconds)
	}
}
