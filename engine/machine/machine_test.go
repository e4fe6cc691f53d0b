package machine

import (
	"math"
	"strings"
	"testing"
)

// p4 is the 1.7 GHz Pentium 4 / PC-133 of the MBRAM paper's Fig. 2.
var p4 = Machine{Name: "p4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}

func TestValidateAccepts(t *testing.T) {
	if err := p4.Validate(); err != nil {
		t.Fatal(err)
	}
	if p4.Mu2() != 2048 {
		t.Fatalf("Mu2 = %d, want 256 KiB / 128 B = 2048", p4.Mu2())
	}
}

// Every validation rule with its exact message.
func TestValidateRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*Machine)
		want   string
	}{
		{"zero beta1", func(m *Machine) { m.Beta1 = 0 }, "beta1: sequential bandwidth must be between 1 KB/s and 1 PB/s (e.g. 2.12 GB/s); got 0 B/s"},
		{"negative beta1", func(m *Machine) { m.Beta1 = -5e9 }, "beta1: sequential bandwidth must be between 1 KB/s and 1 PB/s (e.g. 2.12 GB/s); got -5 GB/s"},
		{"NaN beta1", func(m *Machine) { m.Beta1 = math.NaN() }, "beta1: sequential bandwidth must be between 1 KB/s and 1 PB/s (e.g. 2.12 GB/s); got NaN"},
		{"infinite beta2", func(m *Machine) { m.Beta2 = math.Inf(1) }, "beta2: random-access bandwidth must be between 1 KB/s and 1 PB/s (e.g. 0.95 GB/s); got +Inf"},
		{"zero beta2", func(m *Machine) { m.Beta2 = 0 }, "beta2: random-access bandwidth must be between 1 KB/s and 1 PB/s (e.g. 0.95 GB/s); got 0 B/s"},
		{"beta2 above beta1", func(m *Machine) { m.Beta2 = 2e9 }, "beta2: random-access bandwidth (2 GB/s) must not exceed the sequential bandwidth beta1 (1.06 GB/s)"},
		{"mu1 zero", func(m *Machine) { m.Mu1 = 0 }, "mu1: concurrent sequential streams must be a whole number from 1 to 1024; got 0"},
		{"mu1 huge", func(m *Machine) { m.Mu1 = 5000 }, "mu1: concurrent sequential streams must be a whole number from 1 to 1024; got 5000"},
		{"line not power of two", func(m *Machine) { m.B = 96 }, "line: cache line size must be a power of two from 4 B to 64 KiB; got 96 B"},
		{"line zero", func(m *Machine) { m.B = 0 }, "line: cache line size must be a power of two from 4 B to 64 KiB; got 0 B"},
		{"cache below line", func(m *Machine) { m.C = 64 }, "cache: cache size (64 B) must be at least one line (line = 128 B)"},
		{"cache not whole lines", func(m *Machine) { m.C = 1000 }, "cache: cache size (1000 B) must be a whole number of lines (line = 128 B)"},
		{"cache zero", func(m *Machine) { m.C = 0 }, "cache: cache size must be from one line to 1 TiB; got 0 B"},
		{"cache too large", func(m *Machine) { m.C = 1 << 41 }, "cache: cache size must be from one line to 1 TiB; got 2199023255552 B"},
		{"negative penalty", func(m *Machine) { m.M = -1e-9 }, "mispredict: branch-misprediction penalty must be from 0 to 1 µs (e.g. 7.52 ns); got -1 ns"},
		{"huge penalty", func(m *Machine) { m.M = 1e-3 }, "mispredict: branch-misprediction penalty must be from 0 to 1 µs (e.g. 7.52 ns); got 1 ms"},
		{"one stream", func(m *Machine) { m.Streams = 1 }, "streams: streams must be 0 (not measured) or a whole number from 2 to 1024 (e.g. 33); got 1"},
		{"streams huge", func(m *Machine) { m.Streams = 5000 }, "streams: streams must be 0 (not measured) or a whole number from 2 to 1024 (e.g. 33); got 5000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := p4
			c.change(&m)
			err := m.Validate()
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestValidateReportsEveryField(t *testing.T) {
	err := Machine{}.Validate()
	es, ok := err.(Errors)
	if !ok || len(es) != 5 {
		t.Fatalf("%v", err)
	}
	for _, f := range []string{"beta1", "beta2", "mu1", "line", "cache"} {
		if es.Field(f) == "" {
			t.Errorf("no message for %s", f)
		}
	}
}

// TestDerive checks the MBRAM paper's §III.A against its Fig. 2.
//
//	P4 2.66 / DDR-266: β1 = 8 B·266 MHz = 2.128 GB/s; λ = 10/133 MHz = 75.19 ns;
//	  t = 128/2.128e9 = 60.15 ns; β2 = 128/(135.3 ns) = 0.946 GB/s (0.95); m = 20/2.66 GHz = 7.52 ns.
//	P4 1.7 / PC-133: β1 = 1.064 GB/s; λ = 4/133 MHz = 30.08 ns; t = 120.3 ns;
//	  β2 = 128/150.4 ns = 0.851 GB/s (0.85); m = 20/1.7 GHz = 11.76 ns.
//	P2 0.35 / PC-66: β1 = 0.533 GB/s; λ = 60 ns; t = 60 ns; β2 = 0.267 GB/s (printed 0.26);
//	  m = 10/0.35 GHz = 28.57 ns.
func TestDerive(t *testing.T) {
	for _, c := range []struct {
		name              string
		spec              Spec
		beta1, beta2, pen float64
	}{
		{"p4-2.66", Spec{BusWidth: 8, BusFrequency: 266e6, LatencyCycles: 10, LatencyClock: 133e6, PipelineStages: 20, CPUClock: 2.66e9, Cache: 512 << 10, Line: 128}, 2.128e9, 0.946e9, 7.52e-9},
		{"p4-1.7", Spec{BusWidth: 8, BusFrequency: 133e6, LatencyCycles: 4, PipelineStages: 20, CPUClock: 1.7e9, Cache: 256 << 10, Line: 128}, 1.064e9, 0.851e9, 11.76e-9},
		{"p2-0.35", Spec{BusWidth: 8, BusFrequency: 66.67e6, LatencyCycles: 4, PipelineStages: 10, CPUClock: 0.35e9, Cache: 512 << 10, Line: 32}, 0.533e9, 0.267e9, 28.57e-9},
	} {
		m, err := Derive(c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(m.Beta1-c.beta1) > 0.001e9 || math.Abs(m.Beta2-c.beta2) > 0.001e9 || math.Abs(m.M-c.pen) > 0.01e-9 {
			t.Errorf("%s: β1 %.4g β2 %.4g m %.4g; want %.4g %.4g %.4g", c.name, m.Beta1, m.Beta2, m.M, c.beta1, c.beta2, c.pen)
		}
	}
	_, err := Derive(Spec{BusWidth: 0, BusFrequency: -1, LatencyCycles: -2, PipelineStages: 20, CPUClock: 0})
	want := "bus_width: bus width must be from 1 to 4096 bytes; got 0; bus_frequency: bus frequency must be above 0 Hz and at most 1 THz (e.g. 133 MHz); got -1; latency_cycles: latency must be from 0 to 10^6 bus cycles; got -2; cpu_clock: CPU clock must be above 0 Hz and at most 1 THz (e.g. 2.66 GHz); got 0"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParseJSON(t *testing.T) {
	withUnits := `{"id":"x","name":"P4","beta1":"1.06 GB/s","beta2":"0.85GB/s","mu1":2,"cache":"256 KiB","line":128,"mispredict":"11.76 ns"}`
	m, err := ParseJSON([]byte(withUnits))
	if err != nil {
		t.Fatal(err)
	}
	if m.Beta1 != 1.06e9 || m.Beta2 != 0.85e9 || m.C != 262144 || m.B != 128 || math.Abs(m.M-11.76e-9) > 1e-20 {
		t.Fatalf("%+v", m)
	}
	back, err := ParseJSON(m.JSON())
	if err != nil || back.Beta1 != m.Beta1 || back.C != m.C || back.M != m.M {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{`, "machine file: not valid JSON: the text ends before the object is closed"},
		{`{"beta1": 1,}`, "machine file: not valid JSON at byte 13: invalid character '}' looking for beginning of object key string"},
		{`[]`, "machine file: field \"\" has the wrong type (array)"},
		{`{"beta1":"fast"}`, `beta1: "fast" does not start with a number; beta2: missing; mu1: missing; cache: missing; line: missing; mispredict: missing`},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"256KiB","line":100,"mispredict":"1ns"}`, "line: cache line size must be a power of two from 4 B to 64 KiB; got 100 B"},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2.5,"cache":"256KiB","line":64,"mispredict":"1ns"}`, "mu1: concurrent sequential streams must be a whole number from 1 to 1024; got 2.5"},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":1.5,"line":64,"mispredict":"1ns"}`, "cache: must be a whole number of bytes up to 1 TiB; got 1.5"},
		{`{"name":"x","colour":"red"}`, `machine file: json: unknown field "colour"`},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"256KiB","line":64,"mispredict":"1ns","streams":1}`, "streams: streams must be 0 (not measured) or a whole number from 2 to 1024 (e.g. 33); got 1"},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"256KiB","line":64,"mispredict":"1ns","streams":16.5}`, "streams: streams must be 0 (not measured) or a whole number from 2 to 1024 (e.g. 33); got 16.5"},
		{`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"256KiB","line":64,"mispredict":"1ns","streams":"many"}`, `streams: "many" does not start with a number`},
	} {
		_, err := ParseJSON([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseJSON(%s)\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	if _, err := ParseJSON([]byte(strings.Repeat(" ", MaxFileSize+1))); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized file: %v", err)
	}
}

// FuzzParseJSON: any accepted file is a valid machine whose re-encoding
// reads back to the same parameters.
func FuzzParseJSON(f *testing.F) {
	f.Add(`{"name":"c","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","column_curve":[{"places":1,"lines":16,"read":"1 ns"},{"places":64,"lines":"1Ki","read":3.3e-9}]}`)
	f.Add(`{"name":"P4","beta1":"1.06 GB/s","beta2":"0.85GB/s","mu1":2,"cache":"256 KiB","line":128,"mispredict":"11.76 ns"}`)
	f.Add(`{"beta1":1e400}`)
	f.Add(`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"2^18","line":"2^7","mispredict":0}`)
	f.Add(`{"name":"d","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","distribution":[{"size":"16 KiB","count":"10 ns","scatter":1.3e-8},{"size":67108864,"count":2.7e-8,"scatter":"58 ns","walk":"7 ns"}],"streams":33}`)
	f.Add(`{"name":"l","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","mem_latency":"300 ns","mem_latency_curve":[{"span":"512 MiB","latency":"188 ns"},{"span":2147483648,"latency":3.43e-7}]}`)
	f.Add(`{"name":"p","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","distribution":[{"size":"16 KiB","count":"10 ns","scatter":1.3e-8,"put":"17 ns"},{"size":67108864,"count":2.7e-8,"scatter":"58 ns","walk":"7 ns","put":5.9e-8}]}`)
	f.Add(`{"name":"o","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","level_overlap":"0.5","levels":[{"name":"L1","size":"32 KiB","line":64,"beta1":"100 GB/s","beta2":"50 GB/s"},{"name":"L2","size":"1 MiB","line":64,"beta1":"20 GB/s","beta2":"5 GB/s"}]}`)
	f.Add(`{"name":"w","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","level_overlap":"0.5","walk_in_flight":"2.18","crowded_read":"1.9 ns","levels":[{"name":"L1","size":"32 KiB","line":64,"beta1":"100 GB/s","beta2":"50 GB/s"},{"name":"L2","size":"1 MiB","line":64,"beta1":"20 GB/s","beta2":"5 GB/s"}]}`)
	f.Add(`{"name":"g","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","gather_curve":[{"span":"32 MiB","read":"4 ns"},{"span":67108864,"read":5.4e-9}]}`)
	f.Add(`{"name":"s","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","streams":257,"stream_cost":[{"buckets":8,"scatter":"16.3 ns"},{"buckets":"48","scatter":4.43e-8},{"buckets":256,"scatter":"18.8 ns"}]}`)
	f.Add(`{"name":"f","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"1 MiB","line":64,"mispredict":"5 ns","few_buckets":[{"buckets":2,"count":"17 ns","scatter":2e-8,"put":"22 ns"},{"buckets":"32","count":8.4e-9,"scatter":"12 ns"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseJSON([]byte(s))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid machine: %v", err)
		}
		back, err := ParseJSON(m.JSON())
		if err != nil || back.Beta1 != m.Beta1 || back.Beta2 != m.Beta2 || back.C != m.C || back.B != m.B || back.M != m.M || back.Mu1 != m.Mu1 ||
			!back.SameParameters(m) {
			t.Fatalf("round trip changed %+v to %+v (%v)", m, back, err)
		}
	})
}

func TestNearestLines(t *testing.T) {
	for _, c := range [][3]int64{{10926162, 64, 10926144}, {10926176, 64, 10926208}, {10, 64, 64}, {1 << 20, 64, 1 << 20}} {
		if got := NearestLines(c[0], c[1]); got != c[2] {
			t.Errorf("NearestLines(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
