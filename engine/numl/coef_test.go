package numl

import (
	"errors"
	"math"
	"testing"
)

func TestParseCoef(t *testing.T) {
	got, err := ParseCoef("m1.", "alpha=10us, beta=3.3ns,gamma = 100ns, delta=3.3e-9, beta_mem=1ns, gamma_mem=30ns")
	if err != nil {
		t.Fatal(err)
	}
	want := Coef{Alpha: 10e-6, Beta: 3.3e-9, Gamma: 100e-9, Delta: 3.3e-9, BetaMem: 1e-9, GammaMem: 30e-9}
	for i, p := range [][2]float64{{got.Alpha, want.Alpha}, {got.Beta, want.Beta}, {got.Gamma, want.Gamma}, {got.Delta, want.Delta}, {got.BetaMem, want.BetaMem}, {got.GammaMem, want.GammaMem}} {
		if math.Abs(p[0]-p[1]) > 1e-12*p[1] {
			t.Errorf("coefficient %d: %g, want %g", i, p[0], p[1])
		}
	}
	// String and ParseCoef round-trip.
	back, err := ParseCoef("", got.String())
	if err != nil || math.Abs(back.Gamma-got.Gamma) > 1e-15 || math.Abs(back.Alpha-got.Alpha) > 1e-15 {
		t.Errorf("round trip %q: %+v %v", got.String(), back, err)
	}
	for _, c := range []struct{ in, field string }{
		{"alpha", "std."},
		{"kappa=1ns", "std."},
		{"alpha=1ns, alpha=2ns", "std.alpha"},
		{"beta=fast", "std.beta"},
		{"gamma=-1ns", "std.gamma"},
		{"delta=2s", "std.delta"},
		{"alpha=NaN", "std.alpha"},
	} {
		_, err := ParseCoef("std.", c.in)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%q: %v, want an error naming %s", c.in, err, c.field)
		}
	}
}

func FuzzParseCoef(f *testing.F) {
	for _, s := range []string{"", "alpha=10us", "alpha=1, beta=2ns,gamma=3e-9", "gamma_mem=Inf", "=,=", "beta==1", "alpha=1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCoef("x.", s)
		if err != nil {
			return
		}
		for _, v := range []float64{c.Alpha, c.Beta, c.Gamma, c.Delta, c.BetaMem, c.GammaMem} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("%q gave %+v", s, c)
			}
		}
		if _, err := ParseCoef("x.", c.String()); err != nil {
			t.Fatalf("%q: its String %q does not read back: %v", s, c.String(), err)
		}
	})
}
