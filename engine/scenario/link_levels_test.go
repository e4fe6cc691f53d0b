package scenario_test

import (
	"strings"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/presets"
)

// levelled is a machine that gives its hierarchy, with names that hold
// the link's separators.
func levelled() machine.Machine {
	m := machine.Machine{Name: "Rig: 3 levels, 100%", Beta1: 12e9, Beta2: 1.5e9, Mu1: 2, M: 5e-9,
		MemLatency: 90e-9, MemLatencyCurve: []machine.LatencyPoint{{Span: 512 << 20, Latency: 188e-9}, {Span: 2 << 30, Latency: 343e-9}},
		ComputeRate: 4e9, CoreRates: map[string]float64{"quicksort": 3e9, "heap:sort,%": 1234567.891},
		Distribution: []machine.DistPoint{{Size: 16 << 10, Count: 10e-9, Scatter: 13e-9, Put: 20e-9}, {Size: 1 << 30, Count: 30e-9, Scatter: 58e-9, Walk: 19e-9, Put: 45e-9}}, Streams: 33,
		StreamCost: []machine.StreamPoint{{Buckets: 8, Scatter: 16.6e-9}, {Buckets: 48, Scatter: 45e-9}, {Buckets: 64, Scatter: 22.4e-9}},
		FewBuckets: []machine.FewPoint{{Buckets: 2, Count: 16e-9, Scatter: 20e-9, Put: 22e-9}, {Buckets: 32, Count: 8e-9, Scatter: 12e-9}},
		L1Fill:     0.38e-9, L1Exposed: 0.175, LevelOverlap: 0.5, WalkInFlight: 2.18, CrowdedRead: 1.9e-9,
		ColumnCurve: []machine.ColumnPoint{{Places: 1, Lines: 16, Read: 1e-9}, {Places: 1, Lines: 1024, Read: 3.3e-9}, {Places: 64, Lines: 16, Read: 0.45e-9}},
		GatherCurve: []machine.GatherPoint{{Span: 64 << 20, Read: 5.4e-9}, {Span: 512 << 20, Read: 10.2e-9}}}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9, Latency: 1.2e-9},
		{Name: "L2: mid, 50%", Size: 2 << 20, Line: 64, Beta1: 80e9, Beta2: 40e9},
		{Name: "L3", Size: 30 << 20, Line: 128, Beta1: 31.7e9, Beta2: 10.1e9, Latency: 15e-9},
	})
}

func TestLevelsRoundTrip(t *testing.T) {
	base := scenario.Default(presets.Machine)
	want := scenario.Scenario{Machine: levelled(), Kernel: "heapsort", Params: mbram.DefaultParams(1 << 24)}
	frag, err := want.Fragment(presets.Machine)
	if err != nil {
		t.Fatal(err)
	}
	// (A latency is written in whichever form reads back to the same
	// float64, which for 15e-9 is not "15ns".)
	for _, part := range []string{"levels=L1:48KiB:64B:200GB/s:100GB/s:1.2ns,L2%253A+mid%252C+50%2525:2MiB:64B:80GB/s:40GB/s,L3:30MiB:128B:31.7GB/s:10.1GB/s:",
		"&mem_latency=", "&mem_latency_curve=512MiB:1.88e-07,2GiB:3.43e-07&", "compute_rate=4G", "core_rates=heap%253Asort%252C%2525:1.234567891M,quicksort:3G",
		"distribution=16KiB:10ns:13ns:0s:20ns,1GiB:", "&streams=33", "&stream_cost=8:1.66e-08,48:4.5e-08,64:22.4ns&", "&few_buckets=2:16ns:20ns:2.2e-08,32:8ns:1.2e-08&", "&l1_overlap=380ps:0.175", "&level_overlap=0.5", "&walk_in_flight=2.18", "&crowded_read=1.9ns", "&column_curve=1:16:1ns,1:1024:3.3ns,64:16:450ps", "&gather_curve=64MiB:5.4ns,512MiB:10.2ns"} {
		if !strings.Contains(frag, part) {
			t.Errorf("fragment %q lacks %q", frag, part)
		}
	}
	got, ps := scenario.ParseFragment(frag, base, presets.Machine)
	if len(ps) > 0 {
		t.Fatalf("problems %v", ps)
	}
	if w := want.Machine; !got.Machine.SameParameters(w) || got.Machine.Name != w.Name {
		t.Errorf("machine from %q:\n got %+v\nwant %+v", frag, got.Machine, w)
	}
	for i, l := range got.Machine.Levels {
		if l.Name != want.Machine.Levels[i].Name {
			t.Errorf("level %d named %q; want %q", i, l.Name, want.Machine.Levels[i].Name)
		}
	}
	// A machine of six numbers writes the link it always did.
	six := base
	six.Machine.ID = ""
	frag, _ = six.Fragment(presets.Machine)
	for _, k := range []string{"levels", "mem_latency", "compute_rate", "core_rates", "distribution", "streams", "stream_cost", "few_buckets", "l1_overlap", "level_overlap", "walk_in_flight", "crowded_read", "column_curve", "gather_curve"} {
		if strings.Contains(frag, k+"=") {
			t.Errorf("six-number machine's link %q has %s", frag, k)
		}
	}
}

// A link's levels without cache and line give the machine its C and B.
func TestLevelsGiveCacheAndLine(t *testing.T) {
	s, ps := scenario.ParseFragment("machine=custom&name=R&beta1=10GB/s&beta2=2GB/s&mu1=2&mispredict=5ns&levels=L1:32KiB:64B:100GB/s:50GB/s,L2:1MiB:64B:30GB/s:10GB/s", scenario.Default(presets.Machine), presets.Machine)
	if len(ps) > 0 || s.Machine.C != 1<<20 || s.Machine.B != 64 || len(s.Machine.Levels) != 2 {
		t.Errorf("problems %v, machine %+v", ps, s.Machine)
	}
}

// A bad level is named as levels[i].field; the machine keeps the rest of
// the link and the levels it had (none, here).
func TestBadLevelsKeepTheRest(t *testing.T) {
	base := scenario.Default(presets.Machine)
	const six = "machine=custom&name=Rig&beta1=10GB/s&beta2=2GB/s&mu1=2&cache=1MiB&line=64B&mispredict=5ns"
	for _, c := range []struct{ levels, field, msg string }{
		{"L1:32KiB:64B:100GB/s:50GB/s,L2:1MiB:64B:fast:10GB/s", "levels[1].beta1", "fast"},
		{"L1:32KiB:64B:100GB/s", "levels[0]", "name:size:line:beta1:beta2"},
		{"L1:32KiB:64B:100GB/s:50GB/s,L2:1MiB:96B:30GB/s:10GB/s", "levels[1].line", "power of two"},
		{"L1:32KiB:64B:100GB/s:50GB/s,L2:2MiB:64B:30GB/s:10GB/s", "levels[1].size", "must equal cache"},
		{"", "levels", "empty"},
		{"L1:32KiB:64B:100GB/s:50GB/s:1ns:2ns", "levels[0]", "latency"},
	} {
		s, ps := scenario.ParseFragment(six+"&levels="+c.levels+"&kernel=heapsort", base, presets.Machine)
		if msg := ps.Field(c.field); !strings.Contains(msg, c.msg) || len(ps) != 1 {
			t.Errorf("levels=%s: problems %v; want one for %s with %q", c.levels, ps, c.field, c.msg)
		}
		if m := s.Machine; len(m.Levels) != 0 || m.Name != "Rig" || m.C != 1<<20 || s.Kernel != "heapsort" {
			t.Errorf("levels=%s: machine %+v, kernel %s", c.levels, m, s.Kernel)
		}
	}
	for _, c := range []struct{ kv, field string }{
		{"mem_latency=1s", "mem_latency"},
		{"mem_latency=slow", "mem_latency"},
		{"mem_latency_curve=1GiB:200ns", "mem_latency_curve"},
		{"mem_latency_curve=1GiB", "mem_latency_curve[0]"},
		{"mem_latency_curve=512MiB:188ns,1GiB:slow", "mem_latency_curve[1].latency"},
		{"mem_latency_curve=1GiB:188ns,512MiB:222ns", "mem_latency_curve[1].span"},
		{"mem_latency_curve=512MiB:188ns,1GiB:0s", "mem_latency_curve[1].latency"},
		{"compute_rate=-3", "compute_rate"},
		{"core_rates=quicksort", "core_rates"},
		{"core_rates=quicksort:0", "core_rates.quicksort"},
		{"distribution=16KiB:10ns", "distribution[0]"},
		{"distribution=16KiB:10ns:13ns,1GiB:28ns:lots", "distribution[1].scatter"},
		{"distribution=16KiB:10ns:13ns", "distribution"},
		{"distribution=1GiB:10ns:13ns,16KiB:28ns:58ns", "distribution[1].size"},
		{"distribution=16KiB:10ns:13ns,1GiB:28ns:0s", "distribution[1].scatter"},
		{"distribution=16KiB:10ns:13ns,1GiB:28ns:58ns:-1ns", "distribution[1].walk"},
		{"distribution=16KiB:10ns:13ns,1GiB:28ns:58ns:7ns:1ns:2ns", "distribution[1]"},
		{"distribution=16KiB:10ns:13ns:0s:-1ns,1GiB:28ns:58ns:7ns:40ns", "distribution[0].put"},
		// put at one point and not at the other
		{"distribution=16KiB:10ns:13ns,1GiB:28ns:58ns:7ns:40ns", "distribution"},
		{"streams=1", "streams"},
		{"streams=lots", "streams"},
		{"streams=99999999999", "streams"},
		{"stream_cost=8:17ns", "stream_cost"},
		{"stream_cost=8", "stream_cost[0]"},
		{"stream_cost=8:17ns,many:20ns", "stream_cost[1].buckets"},
		{"stream_cost=8:17ns,64:slow", "stream_cost[1].scatter"},
		{"stream_cost=64:17ns,8:20ns", "stream_cost[1].buckets"},
		{"stream_cost=8:17ns,99999999999:20ns", "stream_cost[1].buckets"},
		{"few_buckets=2:16ns:20ns", "few_buckets"},
		{"few_buckets=2:16ns", "few_buckets[0]"},
		{"few_buckets=2:16ns:20ns,32:8ns:slow", "few_buckets[1].scatter"},
		{"few_buckets=32:16ns:20ns,2:8ns:12ns", "few_buckets[1].buckets"},
		{"few_buckets=2:16ns:20ns,64:8ns:12ns", "few_buckets[1].buckets"},
		{"few_buckets=2:16ns:20ns:22ns:1ns,32:8ns:12ns", "few_buckets[0]"},
		{"l1_overlap=0.38ns", "l1_fill"},
		{"l1_overlap=fast:0.2", "l1_fill"},
		{"l1_overlap=0.38ns:lots", "l1_exposed"},
		// the first level's overlap on a machine of no levels
		{"l1_overlap=0.38ns:0.2", "l1_fill"},
		{"level_overlap=most", "level_overlap"},
		// the levels' overlap above 1
		{"level_overlap=2", "level_overlap"},
		{"walk_in_flight=many", "walk_in_flight"},
		{"walk_in_flight=0.5", "walk_in_flight"},
		{"crowded_read=slow", "crowded_read"},
		{"crowded_read=2us", "crowded_read"},
		{"column_curve=3:16:1ns", "column_curve[0].places"},
		{"column_curve=1:16", "column_curve[0]"},
		{"column_curve=1:64:1ns,1:16:1ns", "column_curve[1].lines"},
		{"column_curve=64:16:1ns,1:64:1ns", "column_curve[1].places"},
		{"column_curve=1:16:2us", "column_curve[0].read"},
		{"column_curve=1:0:1ns", "column_curve[0].lines"},
		{"gather_curve=64MiB:5ns", "gather_curve"},
		{"gather_curve=64MiB:5ns,32MiB:4ns", "gather_curve[1].span"},
		{"gather_curve=64MiB:5ns,128MiB:never", "gather_curve[1].read"},
		{"gather_curve=64MiB:5ns,128MiB:20us", "gather_curve[1].read"},
		{"gather_curve=64MiB,128MiB:6ns", "gather_curve[0]"},
	} {
		s, ps := scenario.ParseFragment(six+"&"+c.kv, base, presets.Machine)
		if ps.Field(c.field) == "" || len(ps) != 1 || s.Machine.Name != "Rig" || s.Machine.MemLatency != 0 || s.Machine.MemLatencyCurve != nil || s.Machine.ComputeRate != 0 || s.Machine.CoreRates != nil || s.Machine.Distribution != nil || s.Machine.Streams != 0 || s.Machine.StreamCost != nil || s.Machine.L1Fill != 0 || s.Machine.L1Exposed != 0 || s.Machine.LevelOverlap != 0 || s.Machine.WalkInFlight != 0 || s.Machine.CrowdedRead != 0 || s.Machine.ColumnCurve != nil || s.Machine.GatherCurve != nil {
			t.Errorf("%s: problems %v, machine %+v", c.kv, ps, s.Machine)
		}
	}
}
