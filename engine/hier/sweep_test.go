package hier

import (
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/presets"
)

// TestSweep: Sweep's time at each n is Model's, point by point (the
// independent route: one call of Model per point, each validating the
// machine), and 0 where Model refuses the workload; a bad machine is the
// error, as from Model.
func TestSweep(t *testing.T) {
	m, ok := presets.Machine("epyc-zen4-kvm-2vcpu")
	if !ok {
		t.Fatal("no preset epyc-zen4-kvm-2vcpu")
	}
	ns := []int64{0, 1 << 10, 3 << 17, 1 << 20, 1 << 24}
	for _, k := range mbram.Kernels() {
		p := mbram.Params{W: 4, Buckets: 64}
		got, err := Sweep(m, k.ID, p, ns)
		if err != nil {
			t.Fatalf("%s: %v", k.ID, err)
		}
		for i, n := range ns {
			q := p
			q.N = n
			want := 0.0
			if e, err := Model(m, k.ID, q); err == nil {
				want = e.Seconds
			}
			if got[i] != want {
				t.Errorf("%s n=%d: Sweep %g, Model %g", k.ID, n, got[i], want)
			}
		}
		if got[0] != 0 {
			t.Errorf("%s n=0: %g, want 0 (no workload)", k.ID, got[0])
		}
	}
	bad := m
	bad.Levels = append([]machine.Level(nil), m.Levels...)
	bad.Levels[0].Beta1 = -1
	if _, err := Sweep(bad, "perm", mbram.Params{W: 4}, ns); err == nil {
		t.Error("a level with a negative bandwidth: no error")
	}
	if _, err := Sweep(m, "nosuch", mbram.Params{W: 4}, ns); err == nil {
		t.Error("an unknown kernel: no error")
	}
}

// BenchmarkModel is one estimate of each kernel on the calibrated AMD
// preset, its machine validated every call (docs/readings.md, Targets:
// a closed form under 1 µs natively).
func BenchmarkModel(b *testing.B) {
	m, ok := presets.Machine("epyc-zen4-kvm-2vcpu")
	if !ok {
		b.Fatal("no preset epyc-zen4-kvm-2vcpu")
	}
	for _, k := range mbram.Kernels() {
		p := mbram.Params{N: 1 << 24, W: 4, Buckets: 64}
		if k.ID == "matmul" {
			p.N = 1192
		}
		b.Run(k.ID, func(b *testing.B) {
			for range b.N {
				if _, err := Model(m, k.ID, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
