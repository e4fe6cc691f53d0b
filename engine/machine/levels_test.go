package machine

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// threeLevels is a current core: 48 KiB L1, 2 MiB L2 and a 32 MiB L3 of
// 64-byte lines, with the L3 filled from memory at 20 and 8 GB/s.
var threeLevels = []Level{
	{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9},
	{Name: "L2", Size: 2 << 20, Line: 64, Beta1: 100e9, Beta2: 50e9},
	{Name: "L3", Size: 32 << 20, Line: 64, Beta1: 20e9, Beta2: 8e9},
}

func hierMachine() Machine {
	m := Machine{Name: "h", Mu1: 2, M: 5e-9, MemLatency: 90e-9, ComputeRate: 4e9}
	return m.WithLevels(threeLevels)
}

func TestHierarchyOfSixNumbers(t *testing.T) {
	h := p4.Hierarchy()
	want := Level{Name: SingleLevelName, Size: p4.C, Line: p4.B, Beta1: p4.Beta1, Beta2: p4.Beta2}
	if len(h) != 1 || h[0] != want {
		t.Fatalf("Hierarchy() = %+v, want [%+v]", h, want)
	}
	if h[0].Lines() != p4.Mu2() {
		t.Errorf("Lines = %d, want mu2 = %d", h[0].Lines(), p4.Mu2())
	}
	// The JSON of a machine without levels has none of the new keys.
	js := string(p4.JSON())
	for _, k := range []string{"levels", "mem_latency", "compute_rate"} {
		if strings.Contains(js, k) {
			t.Errorf("JSON of a six-number machine mentions %s:\n%s", k, js)
		}
	}
}

func TestWithLevels(t *testing.T) {
	m := hierMachine()
	if m.C != 32<<20 || m.B != 64 || m.Beta1 != 20e9 || m.Beta2 != 8e9 {
		t.Fatalf("WithLevels did not take C, B, β1, β2 from the last level: %+v", m)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	h := m.Hierarchy()
	h[0].Size = 1 // a copy: the machine is unchanged
	if m.Levels[0].Size != 48<<10 {
		t.Error("Hierarchy returned the machine's own slice")
	}
	if back := m.WithLevels(nil); back.Levels != nil || back.C != m.C {
		t.Errorf("WithLevels(nil) = %+v", back)
	}
	if m.SameParameters(m.WithLevels(nil)) {
		t.Error("SameParameters ignores the levels")
	}
	// The paper's β1 and β2 are the whole cost of a line from memory and
	// stay the machine's own once set; only C and B follow the last level.
	kept := Machine{Name: "k", Beta1: 9e9, Beta2: 3e9, Mu1: 2, M: 5e-9}.WithLevels(threeLevels)
	if kept.Beta1 != 9e9 || kept.Beta2 != 3e9 || kept.C != 32<<20 {
		t.Errorf("WithLevels replaced the machine's own bandwidths: %+v", kept)
	}
	if err := kept.Validate(); err != nil {
		t.Errorf("last level's bandwidths above the paper's β1, β2 rejected: %v", err)
	}
	o := m
	o.Levels = append([]Level(nil), m.Levels...)
	o.Levels[1].Name = "mid"
	if !m.SameParameters(o) {
		t.Error("SameParameters compares level names")
	}
	o.MemLatency = 100e-9
	if m.SameParameters(o) {
		t.Error("SameParameters ignores the memory latency")
	}
}

// Every hierarchy rule with its exact message.
func TestValidateLevelsRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*Machine)
		want   string
	}{
		{"no name", func(m *Machine) { m.Levels[0].Name = " " }, "levels[0].name: a cache level needs a name such as L1, L2 or L3"},
		{"same name", func(m *Machine) { m.Levels[2].Name = "L1" }, `levels[2].name: "L1" already names levels[0]; give each level its own name`},
		{"long name", func(m *Machine) { m.Levels[1].Name = strings.Repeat("x", 33) }, "levels[1].name: a level's name must be at most 32 bytes; got 33"},
		{"control in name", func(m *Machine) { m.Levels[1].Name = "L\x1b2" }, "levels[1].name: holds a control character; names are printable"},
		{"line not power of two", func(m *Machine) { m.Levels[0].Line = 48 }, "levels[0].line: line size must be a power of two from 4 B to 64 KiB; got 48 B"},
		{"size zero", func(m *Machine) { m.Levels[1].Size = 0 }, "levels[1].size: level size must be from one line to 1 TiB; got 0 B"},
		{"size below line", func(m *Machine) { m.Levels[0].Size = 32 }, "levels[0].size: level size (32 B) must be at least one line (line = 64 B)"},
		{"size not whole lines", func(m *Machine) { m.Levels[0].Size = 1000 }, "levels[0].size: level size (1000 B) must be a whole number of lines (line = 64 B)"},
		{"size not growing", func(m *Machine) { m.Levels[1].Size = 48 << 10 }, "levels[1].size: a level must be larger than the level above it, levels[0] (48 KiB); got 48 KiB"},
		{"line shrinking", func(m *Machine) { m.Levels[0].Line = 128 }, "levels[1].line: a level's line must be at least the line of the level above it, levels[0] (128 B); got 64 B"},
		{"fewer lines", func(m *Machine) {
			m.Levels[1].Line, m.Levels[1].Size = 4096, 64<<10
			m.Levels[2].Line, m.B = 4096, 4096
		},
			"levels[1].size: a level must hold at least as many lines as the level above it, levels[0] (768 lines of 64 B); got 16 lines of 4 KiB"},
		{"beta1 zero", func(m *Machine) { m.Levels[0].Beta1 = 0 }, "levels[0].beta1: sequential fill bandwidth must be between 1 KB/s and 1 PB/s (e.g. 100 GB/s); got 0 B/s"},
		{"beta2 huge", func(m *Machine) { m.Levels[1].Beta2 = 2e15 }, "levels[1].beta2: random fill bandwidth must be between 1 KB/s and 1 PB/s (e.g. 50 GB/s); got 2000 TB/s"},
		{"beta2 above beta1", func(m *Machine) { m.Levels[1].Beta2 = 150e9 }, "levels[1].beta2: random fill bandwidth (150 GB/s) must not exceed the level's sequential fill bandwidth beta1 (100 GB/s)"},
		{"last size", func(m *Machine) { m.C = 16 << 20 }, "levels[2].size: the last level is the machine's cache: its size must equal cache (16 MiB); got 32 MiB"},
		{"last line", func(m *Machine) { m.B = 128 }, "levels[2].line: the last level is the machine's cache: its line must equal line (128 B); got 64 B"},
		{"negative level latency", func(m *Machine) { m.Levels[1].Latency = -2e-9 }, "levels[1].latency: a level's latency must be 0 (not given) or up to 10 µs (e.g. 4 ns); got -2 ns"},
		{"too many", func(m *Machine) { m.Levels = make([]Level, 9) }, "levels: a machine has at most 8 cache levels; got 9"},
		{"negative latency", func(m *Machine) { m.MemLatency = -1e-9 }, "mem_latency: memory latency must be 0 (not given) or up to 10 µs (e.g. 80 ns); got -1 ns"},
		{"huge latency", func(m *Machine) { m.MemLatency = 1e-3 }, "mem_latency: memory latency must be 0 (not given) or up to 10 µs (e.g. 80 ns); got 1 ms"},
		{"tiny compute rate", func(m *Machine) { m.ComputeRate = 10 }, "compute_rate: compute rate must be 0 (not given) or from 1000 to 10^15 operations per second (e.g. 3e9); got 10"},
		{"fill without share", func(m *Machine) { m.L1Fill = 0.38e-9 }, "l1_exposed: the exposed share must be above 0 and at most 1 (1: the fills wait for the work), given with l1_fill; got 0"},
		{"share without fill", func(m *Machine) { m.L1Exposed = 0.2 }, "l1_fill: the first level's fill time must be 0 (not measured) or above 0 and up to 1 µs a line (e.g. 0.38 ns), given with l1_exposed; got 0 s"},
		{"share above one", func(m *Machine) { m.L1Fill, m.L1Exposed = 0.38e-9, 1.5 }, "l1_exposed: the exposed share must be above 0 and at most 1 (1: the fills wait for the work), given with l1_fill; got 1.5"},
		{"overlap below zero", func(m *Machine) { m.LevelOverlap = -0.1 }, "level_overlap: the levels' overlap must be from 0 (the levels' fills one after the other) to 1 (the longest alone); got -0.1"},
		{"overlap not a number", func(m *Machine) { m.LevelOverlap = math.NaN() }, "level_overlap: the levels' overlap must be from 0 (the levels' fills one after the other) to 1 (the longest alone); got NaN"},
		{"under one line in flight", func(m *Machine) { m.WalkInFlight = 0.5 }, "walk_in_flight: a heap walk's lines in flight must be 0 (not measured) or from 1 (one at a time) to 64; got 0.5"},
		{"more lines in flight than miss buffers", func(m *Machine) { m.WalkInFlight = 65 }, "walk_in_flight: a heap walk's lines in flight must be 0 (not measured) or from 1 (one at a time) to 64; got 65"},
		{"lines in flight not a number", func(m *Machine) { m.WalkInFlight = math.NaN() }, "walk_in_flight: a heap walk's lines in flight must be 0 (not measured) or from 1 (one at a time) to 64; got NaN"},
		{"a crowded read over a microsecond", func(m *Machine) { m.CrowdedRead = 2e-6 }, "crowded_read: a crowded read's time must be 0 (not measured) or above 0 and up to 1 µs (e.g. 1.9 ns); got 2 µs"},
		{"a crowded read not a number", func(m *Machine) { m.CrowdedRead = math.NaN() }, "crowded_read: a crowded read's time must be 0 (not measured) or above 0 and up to 1 µs (e.g. 1.9 ns); got NaN"},
		{"fill too slow", func(m *Machine) { m.L1Fill, m.L1Exposed = 2e-6, 0.2 }, "l1_fill: the first level's fill time must be 0 (not measured) or above 0 and up to 1 µs a line (e.g. 0.38 ns), given with l1_exposed; got 2 µs"},
		{"overlap without levels", func(m *Machine) { m.Levels, m.L1Fill, m.L1Exposed = nil, 0.38e-9, 0.2 }, "l1_fill: the first level's fill time needs levels (it is the first level's); this machine has none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := hierMachine()
			m.Levels = append([]Level(nil), m.Levels...)
			c.change(&m)
			err := m.Validate()
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// A machine file with levels reads back, with units, and its JSON reads
// back to the same machine.
func TestParseJSONLevels(t *testing.T) {
	in := `{"name":"h","beta1":"20 GB/s","beta2":"8 GB/s","mu1":2,"cache":"32 MiB","line":64,"mispredict":"5 ns",
	"mem_latency":9e-8,"compute_rate":"4G",
	"levels":[{"name":"L1","size":"48 KiB","line":"64 B","beta1":"200 GB/s","beta2":"100 GB/s"},
	          {"name":"L2","size":"2 MiB","line":64,"beta1":1e11,"beta2":5e10},
	          {"name":"L3","size":33554432,"line":64,"beta1":"20 GB/s","beta2":"8GB/s"}]}`
	m, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := hierMachine()
	if !m.SameParameters(want) || m.Levels[2].Name != "L3" {
		t.Fatalf("got %+v\nwant %+v", m, want)
	}
	back, err := ParseJSON(m.JSON())
	if err != nil || !back.SameParameters(m) || !bytes.Equal(back.JSON(), m.JSON()) {
		t.Fatalf("round trip: %v\n%s", err, back.JSON())
	}
	for _, c := range []struct{ in, want string }{
		{strings.Replace(in, `"size":"2 MiB"`, `"size":"lots"`, 1), `levels[1].size: "lots" does not start with a number`},
		{strings.Replace(in, `"size":"2 MiB",`, ``, 1), `levels[1].size: missing`},
		{strings.Replace(in, `"size":33554432`, `"size":1.5`, 1), `levels[2].size: must be a whole number of bytes up to 1 TiB; got 1.5`},
		{strings.Replace(in, `"cache":"32 MiB"`, `"cache":"16 MiB"`, 1), `levels[2].size: the last level is the machine's cache: its size must equal cache (16 MiB); got 32 MiB`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":"slow"`, 1), `mem_latency: "slow" does not start with a number`},
		{strings.Replace(in, `"name":"L1",`, `"name":"L1","ways":8,`, 1), `machine file: json: unknown field "ways"`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"level_overlap":"most"`, 1), `level_overlap: "most" does not start with a number`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"level_overlap":2`, 1), `level_overlap: the levels' overlap must be from 0 (the levels' fills one after the other) to 1 (the longest alone); got 2`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"walk_in_flight":"many"`, 1), `walk_in_flight: "many" does not start with a number`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"walk_in_flight":0.25`, 1), `walk_in_flight: a heap walk's lines in flight must be 0 (not measured) or from 1 (one at a time) to 64; got 0.25`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"crowded_read":"soon"`, 1), `crowded_read: "soon" does not start with a number`},
		{strings.Replace(in, `"mem_latency":9e-8`, `"mem_latency":9e-8,"crowded_read":"-2 ns"`, 1), `crowded_read: a crowded read's time must be 0 (not measured) or above 0 and up to 1 µs (e.g. 1.9 ns); got -2 ns`},
	} {
		_, err := ParseJSON([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	// The first level's overlap, with units or in base units, reads
	// back; a bad one is named.
	over := strings.Replace(in, `"compute_rate":"4G",`, `"compute_rate":"4G","l1_fill":"0.38 ns","l1_exposed":0.175,"level_overlap":"0.5","walk_in_flight":"2.18","crowded_read":"1.9 ns",`, 1)
	m, err = ParseJSON([]byte(over))
	if err != nil || math.Abs(m.L1Fill-0.38e-9) > 1e-20 || m.L1Exposed != 0.175 || m.LevelOverlap != 0.5 || m.WalkInFlight != 2.18 || math.Abs(m.CrowdedRead-1.9e-9) > 1e-20 {
		t.Fatalf("overlap: %+v %v", m, err)
	}
	if back, err := ParseJSON(m.JSON()); err != nil || !back.SameParameters(m) {
		t.Fatalf("overlap round trip: %v\n%s", err, m.JSON())
	}
	if _, err := ParseJSON([]byte(strings.Replace(over, `"0.38 ns"`, `"quick"`, 1))); err == nil || err.Error() != `l1_fill: "quick" does not start with a number` {
		t.Errorf("bad l1_fill: %v", err)
	}
	// Absent or null optional fields are 0, not missing.
	m, err = ParseJSON([]byte(`{"name":"x","beta1":1e9,"beta2":5e8,"mu1":2,"cache":"256KiB","line":64,"mispredict":"1ns","mem_latency":null,"levels":[]}`))
	if err != nil || m.MemLatency != 0 || m.Levels != nil {
		t.Fatalf("%+v %v", m, err)
	}
}

// TestSizeSpreadKey: a level's size spread is under its own key, but the
// last level's size is C, and so is its spread ("cache").
func TestSizeSpreadKey(t *testing.T) {
	m := Machine{Levels: make([]Level, 3)}
	for i, want := range []string{"levels[0].size", "levels[1].size", "cache"} {
		if got := m.SizeSpreadKey(i); got != want {
			t.Errorf("level %d: %q, want %q", i, got, want)
		}
	}
}

// TestPlateauPoints: where each level's plateau is read, worked by hand.
// The geometric mean of the level's size and the one below (a quarter of
// the first level's size under it), at most half the level; the last
// level at most a quarter of its size. The case the quarter is for: a
// third level that comes out at 16 or 24 MiB under a 256 MiB fourth
// leaves the fourth's point at 64 MiB, where the geometric mean moved it
// from 64 to 78 MiB.
func TestPlateauPoints(t *testing.T) {
	const ki, mi = 1 << 10, 1 << 20
	for _, tc := range []struct {
		sizes []int64
		want  []float64
	}{
		// √(8 Ki·32 Ki) = 16 Ki; √(32 Ki·1 Mi) = 2^17.5; √(1 Mi·24 Mi) = 4.90 Mi; 64 Mi under √(24·256) Mi = 78.4 Mi.
		{[]int64{32 * ki, mi, 24 * mi, 256 * mi}, []float64{16 * ki, math.Pow(2, 17.5), math.Sqrt(24) * mi, 64 * mi}},
		{[]int64{32 * ki, mi, 16 * mi, 256 * mi}, []float64{16 * ki, math.Pow(2, 17.5), 4 * mi, 64 * mi}},
		// A last level further than 16 times from the one below: the
		// geometric mean, under the quarter.
		{[]int64{32 * ki, 512 * ki, 32 * mi}, []float64{16 * ki, 128 * ki, 4 * mi}},
		// One level: half of it, a quarter being only for a last level
		// above another.
		{[]int64{mi}, []float64{mi / 2}},
	} {
		got := PlateauPoints(tc.sizes)
		for i := range tc.want {
			if math.Abs(got[i]-tc.want[i]) > 1e-6*tc.want[i] {
				t.Errorf("sizes %v: level %d at %.0f, want %.0f", tc.sizes, i+1, got[i], tc.want[i])
			}
		}
	}
}

// TestHasControl holds hasControl's byte loop to the rune-by-rune
// definition, strings.IndexFunc(s, isControl) >= 0, on ASCII, on a tab
// (allowed), on DEL and on UTF-8 text with and without a C1 control.
func TestHasControl(t *testing.T) {
	for _, s := range []string{"", "L1", "L1\tdata", "L\x01", "L1\x7f", "Lé", "Lé\u0085", "\u00a0L3", "クイック", "quick\x1f"} {
		if got, want := hasControl(s), strings.IndexFunc(s, isControl) >= 0; got != want {
			t.Errorf("hasControl(%q) = %v, want %v", s, got, want)
		}
	}
}
