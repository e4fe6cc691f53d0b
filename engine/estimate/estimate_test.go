package estimate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"memwall/engine/field"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// paperP4 is the MBRAM paper's 1.7 GHz Pentium 4 / PC-133: six numbers.
var paperP4 = machine.Machine{Name: "P4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}

// threeLevels is a current machine that gives its hierarchy.
func threeLevels() machine.Machine {
	m := machine.Machine{Name: "three", Beta1: 12e9, Beta2: 1.5e9, Mu1: 2, M: 5e-9, MemLatency: 90e-9, ComputeRate: 4e9}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9, Latency: 1.2e-9},
		{Name: "L2", Size: 2 << 20, Line: 64, Beta1: 80e9, Beta2: 40e9, Latency: 4e-9},
		{Name: "L3", Size: 32 << 20, Line: 64, Beta1: 30e9, Beta2: 10e9, Latency: 15e-9},
	})
}

// oneLevel is the paper's machine written as a hierarchy of one level.
func oneLevel() machine.Machine {
	return paperP4.WithLevels([]machine.Level{{Name: "L2", Size: 256 << 10, Line: 128, Beta1: 1.2e9, Beta2: 0.9e9}})
}

func TestPredict(t *testing.T) {
	for _, c := range []struct {
		name      string
		m         machine.Machine
		kernel    string
		n         int64
		want      Model
		model     Model
		note      string // the start of the chosen model's note
		bound     bool
		other     Model // "" when no other prediction is expected
		otherNote string
	}{
		// The paper's Fig. 5 quicksort: its model, a bound, and the
		// hierarchy estimate beside it.
		{"paper machine", paperP4, "quicksort", 8 << 20, Auto, MBRAM, "a lower bound", true, Hier, "an estimate"},
		{"paper machine, hier asked", paperP4, "quicksort", 8 << 20, Hier, Hier, "an estimate", false, MBRAM, "a lower bound"},
		// Y in cache: the permutation product's formula overcharges, so
		// it is no bound (mbram.Breakdown.NotBound).
		{"outside the regime", paperP4, "perm", 1000, MBRAM, MBRAM, NotBoundPrefix, false, Hier, "an estimate"},
		{"levels", threeLevels(), "heapsort", 1 << 24, Auto, Hier, "an estimate", false, MBRAM, "the paper's one-cache model"},
		{"levels, mbram asked", threeLevels(), "radix", 1 << 24, MBRAM, MBRAM, "the paper's one-cache model", false, Hier, "an estimate"},
		// One level is the paper's machine: the bound holds again.
		{"one level", oneLevel(), "mergesort", 1 << 22, Auto, Hier, "an estimate", false, MBRAM, "a lower bound"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mbram.DefaultParams(c.n)
			r, err := Predict(c.m, c.kernel, p, c.want)
			if err != nil {
				t.Fatal(err)
			}
			if r.Model != c.model || !strings.HasPrefix(r.Note, c.note) || r.Bound != c.bound {
				t.Errorf("chose %s (%q, bound %v); want %s (%q…, bound %v)", r.Model, r.Note, r.Bound, c.model, c.note, c.bound)
			}
			// The numbers are the models' own.
			want := mbram.Predict
			if c.model == Hier {
				want = hier.Predict
			}
			if b, _ := want(c.m, c.kernel, p); b.Seconds != r.Breakdown.Seconds || len(b.Terms) != len(r.Breakdown.Terms) {
				t.Errorf("%v s with %d terms; the model gives %v s with %d", r.Breakdown.Seconds, len(r.Breakdown.Terms), b.Seconds, len(b.Terms))
			}
			if s, err := Seconds(c.want, c.m, c.kernel, p); err != nil || s != r.Breakdown.Seconds {
				t.Errorf("Seconds = %v, %v; Predict %v", s, err, r.Breakdown.Seconds)
			}
			switch {
			case c.other == "" && r.Other != nil:
				t.Errorf("other prediction %+v; want none", r.Other)
			case c.other != "" && r.Other == nil:
				t.Errorf("no other prediction; want %s", c.other)
			case c.other != "":
				o := r.Other
				if o.Model != c.other || !strings.HasPrefix(o.Note, c.otherNote) || o.Breakdown.Seconds < 0 || math.IsInf(o.Breakdown.Seconds, 0) {
					t.Errorf("other: %s %v s (%q); want %s (%q…)", o.Model, o.Breakdown.Seconds, o.Note, c.other, c.otherNote)
				}
				if o.Bound != (c.otherNote == "a lower bound") {
					t.Errorf("other bound %v for note %q", o.Bound, o.Note)
				}
			}
		})
	}
}

func TestPredictErrors(t *testing.T) {
	bad := paperP4
	bad.Beta1 = 0
	for _, c := range []struct {
		name   string
		m      machine.Machine
		kernel string
		p      mbram.Params
		want   Model
		field  string
	}{
		{"unknown kernel", paperP4, "bogosort", mbram.DefaultParams(1000), Auto, "kernel"},
		{"bad machine", bad, "quicksort", mbram.DefaultParams(1000), Auto, "beta1"},
		{"bad machine, hier", bad, "quicksort", mbram.DefaultParams(1000), Hier, "beta1"},
		{"n = 0", threeLevels(), "heapsort", mbram.DefaultParams(0), Auto, "n"},
		{"w = 0", threeLevels(), "heapsort", mbram.Params{N: 1000, W: 0, Buckets: 64}, MBRAM, "w"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Predict(c.m, c.kernel, c.p, c.want)
			if err == nil {
				t.Fatalf("no error; got %+v", r)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Errorf("error %q does not name %s", err, c.field)
			}
			if r.Other != nil || r.Breakdown.Seconds != 0 {
				t.Errorf("a failed prediction returned numbers: %+v", r)
			}
		})
	}
}

func TestParseModel(t *testing.T) {
	for in, want := range map[string]Model{"": Auto, "auto": Auto, "mbram": MBRAM, "hier": Hier} {
		if got, err := ParseModel(in); err != nil || got != want {
			t.Errorf("ParseModel(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseModel("HIER")
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Field != "model" || !strings.Contains(fe.Msg, "want auto, mbram or hier") {
		t.Errorf("ParseModel(HIER): %v", err)
	}
	for _, m := range []Model{MBRAM, Hier} {
		if m.Name() == "" || m.Title() == "" || m.Name() == m.Title() {
			t.Errorf("%s: name %q, title %q", m, m.Name(), m.Title())
		}
	}
}

// TestSweep: each point of Sweep is Seconds at its n, by either model and
// by Auto's choice, and 0 where Seconds refuses it (n = 0).
func TestSweep(t *testing.T) {
	ns := []int64{0, 1 << 12, 1 << 20, 1 << 26}
	for _, c := range []struct {
		name  string
		m     machine.Machine
		model Model
	}{{"paper, auto", paperP4, Auto}, {"three levels, auto", threeLevels(), Auto}, {"three levels, mbram", threeLevels(), MBRAM}, {"one level, hier", oneLevel(), Hier}} {
		for _, k := range []string{"perm", "heapsort", "radix"} {
			p := mbram.Params{W: 4, Buckets: 64}
			got := Sweep(c.model, c.m, k, p, ns)
			for i, n := range ns {
				q := p
				q.N = n
				want, err := Seconds(c.model, c.m, k, q)
				if err != nil {
					want = 0
				}
				if got[i] != want {
					t.Errorf("%s, %s n=%d: Sweep %g, Seconds %g", c.name, k, n, got[i], want)
				}
			}
		}
	}
}
