package scenario_test

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/presets"
)

func TestFragmentOfDefaultIsTheDesignExample(t *testing.T) {
	s := scenario.Default(presets.Machine)
	got, err := s.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	// The example link of the Kernels page, plus the word size and radix.
	want := "machine=p4-1.7-pc133&kernel=quicksort&n=8Mi&w=4"
	if got != want {
		t.Errorf("Fragment() = %q, want %q", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	base := scenario.Default(presets.Machine)
	derived, err := machine.Derive(machine.Spec{BusWidth: 8, BusFrequency: 266e6, LatencyCycles: 10,
		LatencyClock: 133e6, PipelineStages: 20, CPUClock: 2.66e9, Cache: 512 << 10, Line: 128})
	if err != nil {
		t.Fatal(err)
	}
	derived.Name = "derived: DDR-266 & friends (Δ test)"
	odd := machine.Machine{Name: "odd", Beta1: 1234567.891, Beta2: 1e3 + 1e-7, Mu1: 3,
		C: 300000 * 64, B: 64, M: 1.234567e-9}
	cases := []scenario.Scenario{
		base,
		{Machine: base.Machine, Kernel: "radix-count", Params: mbram.Params{N: 1 << 23, W: 8, Buckets: 256},
			Compare: []string{"radix", "bucket"}, SweepFrom: 1 << 10, SweepTo: 1<<30 + 1},
		{Machine: derived, Kernel: "matmul", Params: mbram.Params{N: 4000, W: 4, Buckets: 64}},
		{Machine: odd, Kernel: "perm-twopass", Params: mbram.Params{N: 1000003, W: 4, Buckets: 64}},
	}
	for _, want := range cases {
		frag, err := want.Fragment(presets.Machine)
		if err != nil {
			t.Fatal(err)
		}
		got, ps := scenario.ParseFragment("#"+frag, base, presets.Machine)
		if len(ps) > 0 {
			t.Errorf("ParseFragment(%q) problems: %v", frag, ps)
			continue
		}
		if want.Machine.ID == "" || want.Machine.ID != got.Machine.ID {
			// inline machines come back without an id
			want.Machine.ID = got.Machine.ID
		}
		wm, gm := want.Machine, got.Machine
		if wm.Beta1 != gm.Beta1 || wm.Beta2 != gm.Beta2 || wm.Mu1 != gm.Mu1 || wm.C != gm.C || wm.B != gm.B || wm.M != gm.M || wm.Name != gm.Name {
			t.Errorf("machine from %q:\n got %+v\nwant %+v", frag, gm, wm)
		}
		if got.Kernel != want.Kernel || got.Params != want.Params || got.SweepFrom != want.SweepFrom || got.SweepTo != want.SweepTo ||
			strings.Join(got.Compare, ",") != strings.Join(want.Compare, ",") {
			t.Errorf("workload from %q:\n got %+v\nwant %+v", frag, got, want)
		}
		// The same link gives the same prediction, bit for bit.
		bw, err1 := want.Predict()
		bg, err2 := got.Predict()
		if err1 != nil || err2 != nil || bw.Seconds != bg.Seconds {
			t.Errorf("prediction from %q: %v (%v) != %v (%v)", frag, bg.Seconds, err2, bw.Seconds, err1)
		}
	}
}

func TestInlineMachineIsReadable(t *testing.T) {
	s := scenario.Default(presets.Machine)
	s.Machine.ID = ""
	s.Machine.Name = "my box"
	s.Machine.Beta1 = 2.12e9
	frag, err := s.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"machine=custom", "name=my+box", "beta1=2.12GB/s", "beta2=850MB/s", "cache=256KiB", "line=128B", "mispredict=11.76ns"} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment %q lacks %q", frag, want)
		}
	}
}

func TestChangedPresetGoesInline(t *testing.T) {
	s := scenario.Default(presets.Machine)
	s.Machine.Beta2 = 0.9e9 // the id still says p4-1.7-pc133, the numbers do not
	frag, _ := s.Fragment(presets.Machine)
	if !strings.Contains(frag, "machine=custom") || !strings.Contains(frag, "beta2=900MB/s") {
		t.Errorf("an edited preset must be written inline; got %q", frag)
	}
}

func TestBadLinks(t *testing.T) {
	base := scenario.Default(presets.Machine)
	cases := []struct {
		frag    string
		key     string // the key the problem must name
		msgPart string
	}{
		{"machine=nope", "machine", "no preset machine"},
		{"kernel=bogosort", "kernel", "unknown kernel"},
		{"n=-5", "n", "negative"},
		{"n=1.5", "n", "whole number"},
		{"n=2^99", "n", "too large"},
		{"n=0", "n", "from 1"},
		{"kernel=radix&b=1", "b", "buckets"},
		{"beta1=0GB/s", "beta1", "between 1 KB/s"},
		{"beta1=-3GB/s", "beta1", "between 1 KB/s"},
		{"beta2=9GB/s", "beta2", "must not exceed"},
		{"cache=64B&line=128B", "cache", "at least one line"},
		{"line=100B", "line", "power of two"},
		{"mispredict=fast", "mispredict", "number"},
		{"mu1=1e9", "mu1", "at most"},
		{"cmp=quicksort,<script>alert(1)</script>", "cmp", "unknown kernel"},
		{"<script>=1", "link", "unknown key"},
		{"n=%zz", "link", "not a properly %-encoded"},
		{"from=1Mi&to=1Ki", "from", "start below"},
		{"n=8Mi&n=4Mi", "n", "more than once"},
		{strings.Repeat("a", scenario.MaxFragment+1), "link", "nothing was read"},
	}
	for _, c := range cases {
		got, ps := scenario.ParseFragment(c.frag, base, presets.Machine)
		msg := ps.Field(c.key)
		if msg == "" || !strings.Contains(msg, c.msgPart) {
			t.Errorf("ParseFragment(%.60q): problems %v; want one for %q containing %q", c.frag, ps, c.key, c.msgPart)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("ParseFragment(%.60q) returned an invalid scenario: %v", c.frag, err)
		}
	}
}

func TestGoodKeysSurviveABadOne(t *testing.T) {
	base := scenario.Default(presets.Machine)
	got, ps := scenario.ParseFragment("machine=p4-2.66-ddr266&kernel=heapsort&n=oops&w=8", base, presets.Machine)
	if ps.Field("n") == "" {
		t.Errorf("want a problem for n, got %v", ps)
	}
	if got.Machine.ID != "p4-2.66-ddr266" || got.Kernel != "heapsort" {
		t.Errorf("good keys lost: %+v", got)
	}
}

func TestKernelChangeTakesItsDefaultN(t *testing.T) {
	base := scenario.Default(presets.Machine)
	got, ps := scenario.ParseFragment("kernel=matmul", base, presets.Machine)
	if len(ps) > 0 || got.Params.N != 500 {
		t.Errorf("kernel=matmul: N = %d, problems %v; want the kernel's default 500", got.Params.N, ps)
	}
}

func TestLinkTooLong(t *testing.T) {
	s := scenario.Default(presets.Machine)
	s.Machine.ID = ""
	s.Machine.Name = strings.Repeat("é", 100) // 200 bytes, 600 escaped
	for i := 0; i < 200; i++ {
		s.Compare = append(s.Compare, "bucket-count")
	}
	if _, err := s.Fragment(presets.Machine); err == nil || !strings.Contains(err.Error(), "export them as a file") {
		t.Errorf("a 2 KB+ link must be refused with a file-export hint; got %v", err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s := scenario.Default(presets.Machine)
	s.Compare = []string{"mergesort"}
	got, err := scenario.ParseJSON(s.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if got.Machine.Beta1 != s.Machine.Beta1 || got.Machine.M != s.Machine.M || got.Params != s.Params || got.Compare[0] != "mergesort" {
		t.Errorf("JSON round trip: got %+v want %+v", got, s)
	}
	if _, err := scenario.ParseJSON([]byte(`{"kernel":"quicksort"}`)); err == nil {
		t.Error("a scenario without a machine must be refused")
	}
}

func FuzzParseFragment(f *testing.F) {
	base := scenario.Default(presets.Machine)
	for _, s := range []string{
		"machine=p4-1.7-pc133&kernel=quicksort&n=8Mi",
		"machine=custom&name=x&beta1=2.12GB/s&beta2=0.95GB/s&mu1=2&cache=512KiB&line=128&mispredict=7.52ns&kernel=matmul&n=4000",
		"kernel=radix&b=256&cmp=bucket,radix-count&from=1Ki&to=1Gi",
		"n=2^23&w=%20&&=&%",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s:1ns,L2:256KiB:64B:30GB/s:10GB/s&mem_latency=80ns&compute_rate=4G&core_rates=quicksort:3G&kernel=heapsort",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s:1ns,L2:256KiB:64B:30GB/s:10GB/s:4ns&mem_latency_curve=1MiB:90ns,1GiB:200ns&kernel=heapsort&n=2^28",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:256KiB:64B:30GB/s:10GB/s&l1_overlap=0.4ns:0.2&level_overlap=1&kernel=perm&n=2^20",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s:1ns,L2:256KiB:64B:30GB/s:10GB/s:4ns&mem_latency=80ns&walk_in_flight=2.18&kernel=heapsort&n=2^24",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:256KiB:64B:30GB/s:10GB/s&streams=257&stream_cost=8:16.3ns,48:44.3ns,256:18.8ns&kernel=perm-twopass&n=2^26",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:256KiB:64B:30GB/s:10GB/s&compute_rate=4G&column_curve=1:16:1ns,1:1024:3.3ns,64:16:450ps&kernel=matmul&n=1024",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:256KiB:64B:30GB/s:10GB/s&compute_rate=4G&gather_curve=512KiB:2ns,64MiB:5.4ns,1GiB:12ns&kernel=perm&n=2^24",
		"machine=custom&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:256KiB:64B:30GB/s:10GB/s&distribution=16KiB:8ns:10ns:0s:15ns,64MiB:9ns:37ns:7ns:40ns&few_buckets=2:17ns:19ns:21ns,32:8.4ns:10.6ns:15ns&kernel=radix-count&n=2^19",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		s, _ := scenario.ParseFragment(frag, base, presets.Machine)
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseFragment(%q) gave an invalid scenario: %v", frag, err)
		}
		b, err := s.Predict()
		if err != nil || math.IsNaN(b.Seconds) || math.IsInf(b.Seconds, 0) || b.Seconds < 0 {
			t.Fatalf("ParseFragment(%q): prediction %v, %v", frag, b.Seconds, err)
		}
		// Whatever was read writes back to a link that reads the same.
		out, err := s.Fragment(presets.Machine)
		if err != nil {
			return // too long to share; the UI offers a file instead
		}
		s2, ps := scenario.ParseFragment(out, base, presets.Machine)
		if len(ps) > 0 || s2.Kernel != s.Kernel || s2.Params != s.Params || s2.Machine.Beta1 != s.Machine.Beta1 || s2.Machine.M != s.Machine.M {
			t.Fatalf("re-reading %q: problems %v, got %+v want %+v", out, ps, s2, s)
		}
	})
}

// A custom machine with one bad value keeps its other values; the bad one
// is named and takes the value of the machine the link applied over.
func TestBadMachineValueKeepsTheRest(t *testing.T) {
	base := scenario.Default(presets.Machine)
	for _, bad := range []string{"beta1=0GB/s", "beta1=fast"} {
		s, ps := scenario.ParseFragment("machine=custom&name=Rig&"+bad+"&beta2=1GB/s&mu1=3&cache=1MiB&line=64B&mispredict=5ns", base, presets.Machine)
		if ps.Field("beta1") == "" || len(ps) != 1 {
			t.Errorf("%s: problems %v; want one, for beta1", bad, ps)
		}
		m := s.Machine
		if m.Name != "Rig" || m.Beta2 != 1e9 || m.Mu1 != 3 || m.C != 1<<20 || m.B != 64 || m.M != 5e-9 || m.Beta1 != base.Machine.Beta1 {
			t.Errorf("%s: machine %+v; want the link's values with β1 of %s", bad, m, base.Machine.Name)
		}
	}
}
