package measure

import (
	"testing"

	"memwall/presets"
)

// BenchmarkCoreRates times each reference kernel's loop as calibration
// does (coreTimer), and reports its steady rate in operations a second
// (on the Zen 5 preset's levels, which only set the memory the rate
// leaves out). scripts/probes/placement.sh runs it in two builds whose
// kernels lie 32 bytes apart, to show which loops' speeds follow where
// the linker puts them.
func BenchmarkCoreRates(b *testing.B) {
	m, ok := presets.Machine("epyc-zen5-kvm-2vcpu")
	if !ok {
		b.Fatal("no Zen 5 preset")
	}
	for _, k := range CoreKernels {
		b.Run(k, func(b *testing.B) {
			t, err := newCoreTimer(k, m.Levels[0].Size, m.C)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				t.sample(0)
			}
			st, err := t.rates(m)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(st.Steady(), "ops/s")
		})
	}
}
