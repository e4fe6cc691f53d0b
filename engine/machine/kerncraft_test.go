package machine

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// The expected values are read off the fixtures by hand: C is sets × ways
// × cl_size of the last cache level (40960 · 11 · 64 = 28 835 840 B =
// 27.5 MiB) or its size per group with Kerncraft's decimal prefixes
// (20.00 MB = 20 000 000 B); β1 is the copy (else load) bandwidth from
// memory in the column whose core count is 1.
func TestParseKerncraftFixtures(t *testing.T) {
	tests := []struct {
		file              string
		name              string
		clock             float64
		line, cache       int64
		level             string
		beta1             float64
		kernel            string
		needsBeta1Outside bool
	}{
		{"kerncraft-block.yml", "Example Xeon 20-core @ 2.40GHz", 2.4e9, 64, 28835840, "L3", 13.08e9, "copy", false},
		{"kerncraft-flow.yml", "Example Xeon 8-core", 2.7e9, 64, 20000000, "L3", 16.25e9, "load", false},
		{"kerncraft-nomeasure.yml", "Example without measurements", 2.7e9, 64, 20000000, "L3", 0, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			k, err := ParseKerncraft(data)
			if err != nil {
				t.Fatal(err)
			}
			if k.Name != tc.name || k.Clock != tc.clock || k.Line != tc.line || k.Cache != tc.cache ||
				k.CacheLevel != tc.level || k.Beta1 != tc.beta1 || k.Beta1Kernel != tc.kernel {
				t.Errorf("got %+v", k)
			}
			// β2 and m always come from outside; β1 too when the file
			// has no measurement from memory.
			given := Machine{Beta2: 5e9, M: 6e-9}
			m, err := k.Machine(given)
			if tc.needsBeta1Outside {
				var es Errors
				if !errors.As(err, &es) || len(es) != 1 || es[0].Field != "beta1" {
					t.Fatalf("without β1: got %v; want one error naming beta1", err)
				}
				given.Beta1 = 10e9
				if m, err = k.Machine(given); err != nil {
					t.Fatal(err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			want := Machine{Name: tc.name, Beta1: tc.beta1, Beta2: 5e9, Mu1: 2, C: tc.cache, B: tc.line, M: 6e-9}
			if tc.needsBeta1Outside {
				want.Beta1 = 10e9
			}
			if !m.SameParameters(want) || m.Name != want.Name {
				t.Errorf("machine %+v; want the parameters of %+v", m, want)
			}
			if !strings.Contains(m.Source, "Kerncraft") {
				t.Errorf("source %q does not say where the numbers came from", m.Source)
			}
		})
	}
}

func TestKerncraftMachineNeedsBeta2AndM(t *testing.T) {
	data, err := os.ReadFile("testdata/kerncraft-block.yml")
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKerncraft(data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = k.Machine(Machine{})
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 || es[0].Field != "beta2" || es[1].Field != "mispredict" {
		t.Fatalf("got %v; want errors naming beta2 and mispredict", err)
	}
	// A value given replaces the file's.
	m, err := k.Machine(Machine{Beta1: 9e9, Beta2: 1e9, M: 1e-8, Mu1: 4})
	if err != nil || m.Beta1 != 9e9 || m.Mu1 != 4 {
		t.Fatalf("given β1 and μ1: got %+v, %v", m, err)
	}
}

func TestParseKerncraftErrors(t *testing.T) {
	const head = "model name: X\nclock: 2 GHz\ncacheline size: 64 B\n"
	const levels = "memory hierarchy:\n- {level: L2, size per group: 1 MB}\n- {level: MEM}\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"not yaml", "a: [1, 2", "not YAML"},
		{"a list", "- 1\n- 2\n", "must be a YAML mapping"},
		{"no model name", "clock: 2 GHz\n", "model name: missing"},
		{"bad clock", "model name: X\nclock: fast\n", "clock:"},
		{"no line", "model name: X\nclock: 2 GHz\n", "cacheline size: missing"},
		{"bad line", "model name: X\nclock: 2 GHz\ncacheline size: big\n", "cacheline size:"},
		{"no hierarchy", head, "memory hierarchy: missing"},
		{"only memory", head + "memory hierarchy:\n- {level: MEM}\n", "no cache level"},
		{"level not a mapping", head + "memory hierarchy:\n- 3\n", "memory hierarchy[0]: not a mapping"},
		{"bad ways", head + "memory hierarchy:\n- level: L3\n  cache per group: {sets: 4, ways: many, cl_size: 64}\n", "memory hierarchy[0].cache per group.ways"},
		{"huge cache", head + "memory hierarchy:\n- level: L3\n  cache per group: {sets: 1099511627776, ways: 1099511627776, cl_size: 64}\n", "exceeds"},
		{"bad size", head + "memory hierarchy:\n- {level: L3, size per group: lots}\n", "memory hierarchy[0].size per group"},
		{"MEM not a mapping", head + levels + "benchmarks:\n  measurements:\n    MEM: 7\n", "benchmarks.measurements.MEM: must map"},
		{"no cores", head + levels + "benchmarks:\n  measurements:\n    MEM:\n      1:\n        results: {copy: [1 GB/s]}\n", "MEM.1.cores: missing"},
		{"no one core", head + levels + "benchmarks:\n  measurements:\n    MEM:\n      1:\n        cores: [2, 4]\n        results: {copy: [1 GB/s, 2 GB/s]}\n", "no measurement with one core"},
		{"short results", head + levels + "benchmarks:\n  measurements:\n    MEM:\n      1:\n        cores: [2, 1]\n        results: {copy: [1 GB/s]}\n", "results.copy: no value for one core"},
		{"bad bandwidth", head + levels + "benchmarks:\n  measurements:\n    MEM:\n      1:\n        cores: [1]\n        results: {copy: [quick]}\n", "results.copy[0]"},
		{"no kernel", head + levels + "benchmarks:\n  measurements:\n    MEM:\n      1:\n        cores: [1]\n        results: {triad: [1 GB/s]}\n", "neither copy nor load"},
		{"bad sets", head + "memory hierarchy:\n- level: L1\n  cache per group: {sets: 64, ways: 8, cl_size: 64}\n- level: L2\n  cache per group: {sets: -1, ways: 8, cl_size: 64}\n", "memory hierarchy[1].cache per group.sets: must be a whole number"},
		{"bad cl_size", head + "memory hierarchy:\n- level: L1\n  cache per group: {sets: 64, ways: 8, cl_size: 64 parsecs}\n", "memory hierarchy[0].cache per group.cl_size"},
		{"level a list", head + "memory hierarchy:\n- level: [L1]\n  size per group: 32 kB\n", "memory hierarchy[0].level: not a single value"},
		{"bad level size", head + "memory hierarchy:\n- {level: L1, size per group: 32 kB}\n- {level: L2, size per group: much}\n", "memory hierarchy[1].size per group"},
		{"bad L1 load", head + levels + "benchmarks:\n  measurements:\n    L2:\n      1:\n        cores: [1]\n        results: {load: [fast]}\n", "benchmarks.measurements.L2.1.results.load[0]"},
		{"zero L1 load", head + levels + "benchmarks:\n  measurements:\n    L2:\n      1:\n        cores: [2, 1]\n        results: {load: [1 GB/s, 0 GB/s]}\n", "benchmarks.measurements.L2.1.results.load[1]: a bandwidth must be from 1 KB/s"},
		{"level without kernel", head + levels + "benchmarks:\n  measurements:\n    L2:\n      1:\n        cores: [1]\n        results: {triad: [1 GB/s]}\n", "benchmarks.measurements.L2.1.results: neither load nor copy"},
		{"level without one core", head + levels + "benchmarks:\n  measurements:\n    L2:\n      2:\n        cores: [2]\n        results: {load: [1 GB/s]}\n", "benchmarks.measurements.L2.2.cores: no measurement with one core"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseKerncraft([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want an error containing %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "kerncraft: ") {
				t.Errorf("%q does not say it is about the Kerncraft file", err)
			}
		})
	}
	big := make([]byte, MaxKerncraftFile+1)
	if _, err := ParseKerncraft(big); err == nil || !strings.Contains(err.Error(), "accepted") {
		t.Errorf("a file over the limit: got %v", err)
	}
}

// FuzzParseKerncraft: any input gives a Kerncraft or an error, never a
// panic, and a machine built from it either validates or says why not.
func FuzzParseKerncraft(f *testing.F) {
	for _, name := range []string{"kerncraft-block.yml", "kerncraft-flow.yml", "kerncraft-nomeasure.yml", "kerncraft-levels.yml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("model name: &a [*a]\n"))
	f.Add([]byte(kcFallback))
	f.Add([]byte(kcHead + "memory hierarchy:\n- {level: L1, size per group: 1 MB}\n- {level: L2, size per group: 32 kB}\n- {level: MEM}\n" +
		kcMeasure("L1", "100 GB/s", "L2", "50 GB/s", "MEM", "10 GB/s")))
	f.Add([]byte(kcHead + "memory hierarchy:\n- {level: L1, size per group: 32 kB}\n- {level: MEM}\n" +
		kcMeasure("L1", "100.000001 GB/s", "MEM", "100 GB/s")))
	// The transfers overlap of each level, as Kerncraft's Zen files give it.
	f.Add([]byte(kcHead + "memory hierarchy:\n- {level: L1, size per group: 32 kB, transfers overlap: true}\n- {level: L2, size per group: 1 MB, transfers overlap: true}\n- {level: MEM, transfers overlap: false}\n" +
		kcMeasure("L1", "100 GB/s", "L2", "50 GB/s", "MEM", "10 GB/s")))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseKerncraft(data)
		if err != nil {
			return
		}
		for _, given := range []Machine{{Beta1: 1e9, Beta2: 1e9, M: 1e-9}, {Beta2: 1e8, M: 1e-9}, {}} {
			m, err := k.Machine(given)
			if err == nil {
				if verr := m.Validate(); verr != nil {
					t.Fatalf("Machine returned no error but %+v does not validate: %v", m, verr)
				}
			}
			if len(m.Levels) > 0 && len(ValidateLevels(m.Levels)) > 0 {
				t.Fatalf("Machine kept levels that do not validate: %+v", m.Levels)
			}
		}
	})
}

// TestKerncraftLevels reads the synthetic file testdata/kerncraft-levels.yml,
// whose numbers are chosen to be checked by hand:
//
//	L1: 64 sets × 12 ways × 64 B      = 49 152 B (48 KiB)
//	L2: 2048 × 16 × 64 B ("64 B")     = 2 097 152 B (2 MiB)
//	L3: 32768 × 12 × 64 B             = 25 165 824 B (24 MiB)
//
// The one-core streaming bandwidths, one thread per core: L1 load
// 200 GB/s; L2 load 100 GB/s (its "1" threads entry comes second, and one
// core is its second column); L3 has only copy, 32 GB/s × 1.5 (Kerncraft's
// write-allocate correction) = 48 GB/s; memory load 16 GB/s. The fill
// bandwidths, 1/β1,i = 1/bw(i+1) − 1/bw(i):
//
//	L1: 1/(1/100 − 1/200) GB/s = 200 GB/s
//	L2: 1/(1/48 − 1/100) GB/s  = 4800/52 GB/s = 92.31 GB/s
//	L3: 1/(1/16 − 1/48) GB/s   = 24 GB/s
//
// β1 of the machine stays the copy from memory, 12 GB/s; with β2 given as
// 4 GB/s, every level's β2 is a third of its β1.
func TestKerncraftLevels(t *testing.T) {
	data, err := os.ReadFile("testdata/kerncraft-levels.yml")
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKerncraft(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Level{
		{Name: "L1", Size: 49152, Line: 64, Beta1: 200e9},
		{Name: "L2", Size: 2097152, Line: 64, Beta1: 4800e9 / 52},
		{Name: "L3", Size: 25165824, Line: 64, Beta1: 24e9},
	}
	wantStreams := []KerncraftStream{{"L1", 200e9, "load"}, {"L2", 100e9, "load"}, {"L3", 48e9, "copy"}, {"MEM", 16e9, "load"}}
	if k.Gap != "" || len(k.Fallbacks) != 0 || k.Cache != 25165824 || k.CacheLevel != "L3" || k.Beta1 != 12e9 || k.Beta1Kernel != "copy" {
		t.Fatalf("got %+v", k)
	}
	if len(k.Streams) != len(wantStreams) {
		t.Fatalf("streams %+v; want %+v", k.Streams, wantStreams)
	}
	for i, s := range k.Streams {
		w := wantStreams[i]
		if s.Level != w.Level || s.Kernel != w.Kernel || !near(s.Bandwidth, w.Bandwidth) {
			t.Errorf("stream %d = %+v; want %+v", i, s, w)
		}
	}
	m, err := k.Machine(Machine{Beta2: 4e9, M: 6e-9})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Levels) != len(want) {
		t.Fatalf("levels %+v; want %+v", m.Levels, want)
	}
	for i, l := range m.Levels {
		w := want[i]
		if l.Name != w.Name || l.Size != w.Size || l.Line != w.Line || !near(l.Beta1, w.Beta1) || !near(l.Beta2, w.Beta1/3) || l.Latency != 0 {
			t.Errorf("level %d = %+v; want %+v with β2 = β1/3", i, l, w)
		}
	}
	if m.C != 25165824 || m.B != 64 || m.Beta1 != 12e9 || m.Beta2 != 4e9 || m.MemLatency != 0 {
		t.Errorf("machine %+v", m)
	}
	if !strings.Contains(m.Notes["levels_beta2"], "not in a Kerncraft file") || !strings.Contains(m.Notes["levels_latency"], "no load-to-use latencies") ||
		!strings.Contains(m.Notes["levels"], "L3 48 GB/s (copy)") || !strings.Contains(m.Source, "levels") {
		t.Errorf("notes %q, source %q", m.Notes, m.Source)
	}
	// Without β2 the levels' β2 are their β1, and the notes say so.
	m, _ = k.Machine(Machine{})
	if len(m.Levels) != 3 || m.Levels[2].Beta2 != m.Levels[2].Beta1 || !strings.Contains(m.Notes["levels_beta2"], "no β2 was given") {
		t.Errorf("without β2: levels %+v, notes %q", m.Levels, m.Notes)
	}
	// The file does not say whether the transfers overlap: ω = 0.
	if m.LevelOverlap != 0 || m.Notes["level_overlap"] != "" {
		t.Errorf("no transfers overlap: ω = %g, note %q", m.LevelOverlap, m.Notes["level_overlap"])
	}
	// With "transfers overlap" as Kerncraft's Zen 2 file gives it (L1,
	// L2 and L3 true, memory false) every transfer hides behind the
	// longest, ω = 1; as its Zen file gives it (L3 and memory false)
	// two add up, and as the Intel files give it (all false) all do:
	// ω = 0. A value other than true or false is named.
	overlap := func(l1, l2, l3, mem string) string {
		s := string(data)
		for _, r := range []struct{ at, v string }{{"- level: L1\n", l1}, {"- level: L2\n", l2}, {"- level: L3\n", l3}, {"- level: MEM\n", mem}} {
			s = strings.Replace(s, r.at, r.at+"  transfers overlap: "+r.v+"\n", 1)
		}
		return s
	}
	for _, c := range []struct {
		l1, l2, l3, mem string
		want            float64
	}{
		{"true", "true", "true", "false", 1},
		{"true", "true", "false", "false", 0},
		{"false", "false", "false", "false", 0},
	} {
		k, err := ParseKerncraft([]byte(overlap(c.l1, c.l2, c.l3, c.mem)))
		if err != nil {
			t.Fatal(err)
		}
		m, err := k.Machine(Machine{Beta2: 4e9, M: 6e-9})
		if err != nil || m.LevelOverlap != c.want || !strings.Contains(m.Notes["level_overlap"], "transfers overlap") {
			t.Errorf("%+v: ω = %g, note %q, %v", c, m.LevelOverlap, m.Notes["level_overlap"], err)
		}
	}
	if _, err := ParseKerncraft([]byte(overlap("true", "yes", "true", "false"))); err == nil || !strings.Contains(err.Error(), `memory hierarchy[1].transfers overlap: true or false; got "yes"`) {
		t.Errorf("transfers overlap yes: %v", err)
	}
}

const kcHead = "model name: X\nclock: 2 GHz\ncacheline size: 64 B\n"

// kcMeasure is a measurements section with the one-core load of each
// level, given as pairs of a level and a bandwidth.
func kcMeasure(pairs ...string) string {
	s := "benchmarks:\n  measurements:\n"
	for i := 0; i+1 < len(pairs); i += 2 {
		s += "    " + pairs[i] + ":\n      1:\n        cores: [1]\n        results: {load: [" + pairs[i+1] + "]}\n"
	}
	return s
}

// kcFallback has an L2 that streams faster than its L1.
const kcFallback = kcHead + `memory hierarchy:
- {level: L1, size per group: 32 kB}
- {level: L2, size per group: 1 MB}
- {level: MEM, size per group: null}
benchmarks:
  measurements:
    L1: {1: {cores: [1], results: {load: [50 GB/s]}}}
    L2: {1: {cores: [1], results: {load: [60 GB/s]}}}
    MEM: {1: {cores: [1], results: {load: [10 GB/s], copy: [8 GB/s]}}}
`

// TestKerncraftLevelsGapsAndFallback: files that do not measure every
// level give the paper's machine with a note; a level that streams no
// faster than the one below is filled at that one's streaming bandwidth;
// levels that do not validate are left out with the reason.
func TestKerncraftLevelsGapsAndFallback(t *testing.T) {
	given := Machine{Beta2: 2e9, M: 6e-9}
	for file, missing := range map[string]string{"kerncraft-block.yml": "L2, L3", "kerncraft-flow.yml": "L1, L2, L3", "kerncraft-nomeasure.yml": "L1, L3, MEM"} {
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ParseKerncraft(data)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(k.Gap, "for "+missing+",") || k.Streams != nil {
			t.Errorf("%s: gap %q, streams %+v; want the gap to name %s", file, k.Gap, k.Streams, missing)
		}
		g := given
		g.Beta1 = 10e9
		m, err := k.Machine(g)
		if err != nil || m.Levels != nil || !strings.Contains(m.Notes["levels"], "not filled") {
			t.Errorf("%s: %v, levels %+v, notes %q", file, err, m.Levels, m.Notes)
		}
	}

	// L1 50 GB/s, L2 60 GB/s, memory 10 GB/s: L1 is filled at L2's
	// 60 GB/s; L2 at 1/(1/10 − 1/60) GB/s = 12 GB/s. C = 1 MB (decimal,
	// as Kerncraft reads size per group) = 15 625 lines of 64 B.
	k, err := ParseKerncraft([]byte(kcFallback))
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Fallbacks) != 1 || !strings.HasPrefix(k.Fallbacks[0], "L1 streams no faster than L2") {
		t.Errorf("fallbacks %q", k.Fallbacks)
	}
	m, err := k.Machine(given)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Levels) != 2 || m.Levels[0].Beta1 != 60e9 || !near(m.Levels[1].Beta1, 12e9) || m.C != 1000000 || m.Beta1 != 8e9 ||
		!near(m.Levels[1].Beta2, 12e9/4) || m.Notes["levels_fallback"] == "" {
		t.Errorf("levels %+v, machine %+v", m.Levels, m)
	}

	// An L2 smaller than its L1 is no hierarchy: the levels are left out
	// and the machine is the paper's.
	bad := strings.Replace(kcFallback, "size per group: 1 MB", "size per group: 16 kB", 1)
	if k, err = ParseKerncraft([]byte(bad)); err != nil {
		t.Fatal(err)
	}
	m, err = k.Machine(given)
	if err != nil || m.Levels != nil || !strings.Contains(m.Notes["levels"], "left out: levels[1].size") {
		t.Errorf("%v, levels %+v, notes %q", err, m.Levels, m.Notes)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
