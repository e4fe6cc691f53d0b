package machine

import (
	"testing"
)

// TestScaled: each key moves its own number by the factor and nothing
// else, on a copy. Values by hand from hierMachine (threeLevels).
func TestScaled(t *testing.T) {
	base := func() Machine {
		m := hierMachine()
		m.CoreRates = map[string]float64{"perm": 2e10}
		m.Distribution = []DistPoint{{Size: 1 << 20, Count: 10e-9, Scatter: 12e-9, Put: 15e-9}, {Size: 1 << 30, Count: 28e-9, Scatter: 56e-9, Walk: 28e-9, Put: 58e-9}}
		m.L1Fill, m.L1Exposed = 0.4e-9, 0.5
		m.StreamCost = []StreamPoint{{Buckets: 8, Scatter: 16e-9}, {Buckets: 48, Scatter: 44e-9}}
		m.FewBuckets = []FewPoint{{Buckets: 2, Count: 16e-9, Scatter: 20e-9, Put: 22e-9}, {Buckets: 32, Count: 8e-9, Scatter: 12e-9}}
		return m
	}
	for _, tc := range []struct {
		key  string
		f    float64
		ok   bool
		want func(m Machine) bool
	}{
		{"beta1", 1.1, true, func(m Machine) bool { return m.Beta1 == 22e9 && m.Levels[2].Beta1 == 20e9 }},
		{"mispredict", 2, true, func(m Machine) bool { return m.M == 10e-9 }},
		{"mem_latency", 0.5, true, func(m Machine) bool { return m.MemLatency == 45e-9 }},
		{"compute_rate", 1.5, true, func(m Machine) bool { return m.ComputeRate == 6e9 }},
		{"l1_fill", 2, true, func(m Machine) bool { return m.L1Fill == 0.8e-9 && m.L1Exposed == 0.5 }},
		{"l1_exposed", 1.5, true, func(m Machine) bool { return m.L1Exposed == 0.75 && m.L1Fill == 0.4e-9 }},
		// A share stops at 1.
		{"l1_exposed", 3, true, func(m Machine) bool { return m.L1Exposed == 1 }},
		{"core_rates.perm", 1.5, true, func(m Machine) bool { return m.CoreRates["perm"] == 3e10 }},
		{"core_rates.heapsort", 1.5, false, nil},
		{"levels[1].beta2", 2, true, func(m Machine) bool { return m.Levels[1].Beta2 == 100e9 && m.Levels[1].Beta1 == 100e9 }},
		{"levels[0].latency", 2, false, nil}, // no latency given
		// 2 MiB is 32768 lines of 64 B; × 1.1 = 36044.8 → 36045 lines.
		{"levels[1].size", 1.1, true, func(m Machine) bool { return m.Levels[1].Size == 36045*64 && m.C == 32<<20 }},
		// L2 past L3 breaks the order: not there.
		{"levels[1].size", 20, false, nil},
		// The last level's size is the machine's C: one moves the other.
		{"cache", 1.25, true, func(m Machine) bool { return m.C == 40<<20 && m.Levels[2].Size == 40<<20 }},
		{"levels[2].size", 0.75, true, func(m Machine) bool { return m.C == 24<<20 && m.Levels[2].Size == 24<<20 }},
		{"cache", 0.01, false, nil}, // below L2
		// The curve's loop at every point; the others untouched.
		{"distribution.scatter", 2, true, func(m Machine) bool {
			d := m.Distribution
			return d[0].Scatter == 24e-9 && d[1].Scatter == 112e-9 && d[1].Count == 28e-9 && d[1].Put == 58e-9
		}},
		{"distribution.walk", 2, true, func(m Machine) bool { return m.Distribution[0].Walk == 0 && m.Distribution[1].Walk == 56e-9 }},
		{"distribution.other", 2, false, nil},
		// The few-bucket curve's loop at every point that has it.
		{"few_buckets.count", 2, true, func(m Machine) bool {
			f := m.FewBuckets
			return f[0].Count == 32e-9 && f[1].Count == 16e-9 && f[0].Scatter == 20e-9 && f[0].Put == 22e-9
		}},
		{"few_buckets.put", 2, true, func(m Machine) bool { return m.FewBuckets[0].Put == 44e-9 && m.FewBuckets[1].Put == 0 }},
		{"few_buckets.walk", 2, false, nil},
		// The whole stream curve, by its slowest point's spread.
		{"stream_cost.slowest", 2, true, func(m Machine) bool { return m.StreamCost[0].Scatter == 32e-9 && m.StreamCost[1].Scatter == 88e-9 }},
		{"stream_cost.fastest", 1.5, false, nil},
		{"levels[7].beta1", 2, false, nil},
		{"levels[x].beta1", 2, false, nil},
		{"beta1", 0, false, nil},
		{"beta1", -1, false, nil},
		{"nonsense", 2, false, nil},
	} {
		m := base()
		got, ok := m.Scaled(tc.key, tc.f)
		if ok != tc.ok {
			t.Errorf("Scaled(%q, %v): ok %v, want %v", tc.key, tc.f, ok, tc.ok)
			continue
		}
		if ok && !tc.want(got) {
			t.Errorf("Scaled(%q, %v) = %+v", tc.key, tc.f, got)
		}
		if !m.SameParameters(base()) || m.CoreRates["perm"] != 2e10 {
			t.Errorf("Scaled(%q, %v) changed the machine it was called on", tc.key, tc.f)
		}
	}
}
