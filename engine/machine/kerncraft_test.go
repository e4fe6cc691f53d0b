package machine

import (
	"errors"
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
	for _, name := range []string{"kerncraft-block.yml", "kerncraft-flow.yml", "kerncraft-nomeasure.yml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("model name: &a [*a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseKerncraft(data)
		if err != nil {
			return
		}
		m, err := k.Machine(Machine{Beta1: 1e9, Beta2: 1e9, M: 1e-9})
		if err == nil {
			if verr := m.Validate(); verr != nil {
				t.Fatalf("Machine returned no error but %+v does not validate: %v", m, verr)
			}
		}
	})
}
