package lang

import (
	"strings"
	"testing"

	"memwall/presets"
)

func TestScenarioLinkRoundTrip(t *testing.T) {
	m, _ := presets.Machine("p4-2.66-ddr266")
	qs, _ := LookupExample("quicksort")
	tp, _ := LookupExample("perm-twopass")
	s := Scenario{Machine: m, Source: qs.Source, Compare: tp.Source, Params: map[string]int64{"N": 1 << 22}, Seed: 9,
		Predictor: "2bit", Branches: "data", At: 1 << 24, Kernel: "quicksort", MissCurve: true}
	frag, err := s.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	// Two typical programs in one link stay within the 2 KB budget.
	if len(frag) > MaxLink {
		t.Fatalf("link of %d bytes", len(frag))
	}
	t.Logf("link: %d bytes for %d + %d bytes of programs", len(frag), len(qs.Source), len(tp.Source))
	got, ps := ParseFragment("#"+frag, Scenario{Predictor: "majority", Branches: "all", Seed: 1}, presets.Machine)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if got.Source != s.Source || got.Compare != s.Compare || got.Params["N"] != 1<<22 || got.Seed != 9 ||
		got.Predictor != "2bit" || got.Branches != "data" || got.At != 1<<24 || got.Kernel != "quicksort" || !got.MissCurve || got.Machine.ID != m.ID {
		t.Errorf("round trip: %+v", got)
	}
	// A custom machine travels inline.
	c := m
	c.ID, c.Name, c.C = "", "mine", 1<<20
	s.Machine = c
	frag, err = s.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	got, ps = ParseFragment(frag, Scenario{Machine: m}, presets.Machine)
	if len(ps) > 0 || got.Machine.C != 1<<20 || got.Machine.Name != "mine" {
		t.Errorf("custom machine: %+v %v", got.Machine, ps)
	}
}

func TestScenarioLinkProblems(t *testing.T) {
	m, _ := presets.Machine("p4-2.66-ddr266")
	base := Scenario{Machine: m, Source: "x = 1;", Predictor: "majority", Branches: "all", Seed: 1}
	got, ps := ParseFragment("prog=%%%&p.N=lots&seed=-1&pred=oracle&bogus=1&at=0&curve=2", base, presets.Machine)
	for _, k := range []string{"link", "p.N", "seed", "pred", "at", "curve"} {
		if ps.Field(k) == "" {
			t.Errorf("no problem for %s in %v", k, ps)
		}
	}
	if got.Source != base.Source {
		t.Errorf("a bad link changed the program")
	}
	_, ps = ParseFragment("prog=AAAA", base, presets.Machine)
	if !strings.Contains(ps.Field("prog"), "not a program written by memwall") {
		t.Errorf("garbage program: %v", ps)
	}
	// A long program is refused with a message that offers a file.
	long := Scenario{Machine: m, Source: strings.Repeat("x = rand(1000000); // a comment that does not compress well\n", 1) + randomText(6000)}
	if _, err := long.Fragment(presets.Machine); err == nil || !strings.Contains(err.Error(), "save it as a file") {
		t.Errorf("long program: %v", err)
	}
}

func randomText(n int) string {
	var b strings.Builder
	x := uint64(12345)
	for b.Len() < n {
		x = x*6364136223846793005 + 1442695040888963407
		b.WriteByte(byte('a' + x>>59%26))
		if x>>40%9 == 0 {
			b.WriteByte('\n')
		}
	}
	return "/*" + b.String() + "*/"
}

func TestScenarioJSON(t *testing.T) {
	m, _ := presets.Machine("p4-2.66-ddr266")
	s := Scenario{Machine: m, Source: "param N = 8\nint A[N];", Params: map[string]int64{"N": 16}, Seed: 1, Predictor: "majority", Branches: "all"}
	got, err := ParseJSON(s.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != s.Source || got.Params["N"] != 16 || got.Machine.C != m.C {
		t.Errorf("JSON round trip: %+v", got)
	}
	if _, err := ParseJSON([]byte(`{"source": "", "bogus": 1}`)); err == nil {
		t.Error("unknown field accepted")
	}
}
