package scenario_test

import (
	"strings"
	"testing"

	"memwall/engine/scenario"
	"memwall/engine/sim"
	"memwall/presets"
)

func TestRunLinkProblems(t *testing.T) {
	for _, c := range []struct {
		frag string
		want []string // keys with problems
	}{
		{"seed=-3&pred=perfect&kernel=heapsort", []string{"seed", "pred"}},
		{"curve=yes&kernel=heapsort", []string{"curve"}},
		{"kernel=<script>alert(1)</script>&n=2^12", []string{"kernel"}},
		{"%E0%A4%A&seed=%zz", []string{"link"}},
		{strings.Repeat("seed=1&", 1000), []string{"link"}},
	} {
		_, problems := scenario.ParseRunFragment(c.frag, scenario.DefaultRun(presets.Machine), presets.Machine)
		for _, k := range c.want {
			if problems.Field(k) == "" {
				t.Errorf("%.40q: no problem for %s in %v", c.frag, k, problems)
			}
		}
	}
	// Kernels-page keys are accepted and dropped.
	r, problems := scenario.ParseRunFragment("machine=p4-1.7-pc133&kernel=radix&n=2^20&b=256&cmp=bucket&from=1Ki", scenario.DefaultRun(presets.Machine), presets.Machine)
	if len(problems) > 0 || r.Kernel != "radix" || r.Params.Buckets != 256 || len(r.Compare) > 0 || r.SweepFrom != 0 {
		t.Errorf("a Kernels link: %+v %v", r, problems)
	}
	// A round trip keeps an inline machine, the seed, the predictor and
	// the miss curve.
	s := r
	s.Machine.ID, s.Machine.Name, s.Machine.B = "", "Lab", 64
	s.Seed, s.Predictor, s.MissCurve = 1<<63, "2bit", true
	f, err := s.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	back, problems := scenario.ParseRunFragment(f, scenario.DefaultRun(presets.Machine), presets.Machine)
	if len(problems) > 0 || back.Seed != 1<<63 || back.Pred() != sim.TwoBit || !back.MissCurve || back.Machine.Name != "Lab" || back.Machine.B != 64 || back.Machine.Beta1 != s.Machine.Beta1 || back.Params != s.Params {
		t.Errorf("round trip of %q: %+v %v", f, back, problems)
	}
	// The scenario file gives the same run.
	file, err := scenario.ParseRunJSON(back.JSON())
	if err != nil || file.Seed != back.Seed || file.Pred() != sim.TwoBit || !file.MissCurve || file.Params != back.Params || !file.Machine.SameParameters(back.Machine) {
		t.Errorf("file round trip: %+v, %v", file, err)
	}
}

// A link without curve= has no miss curve, and curve=0 turns off a base's.
func TestRunLinkCurve(t *testing.T) {
	base := scenario.DefaultRun(presets.Machine)
	if r, ps := scenario.ParseRunFragment("kernel=heapsort", base, presets.Machine); len(ps) > 0 || r.MissCurve {
		t.Errorf("no curve key: %+v %v", r.MissCurve, ps)
	}
	base.MissCurve = true
	if r, ps := scenario.ParseRunFragment("kernel=heapsort&curve=0", base, presets.Machine); len(ps) > 0 || r.MissCurve {
		t.Errorf("curve=0: %+v %v", r.MissCurve, ps)
	}
	f, err := scenario.DefaultRun(presets.Machine).Fragment(presets.Machine)
	if err != nil || strings.Contains(f, "curve") {
		t.Errorf("a run without the curve writes %q, %v", f, err)
	}
}
