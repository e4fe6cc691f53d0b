package scenario

import (
	"encoding/json"
	"fmt"
	"memwall/internal/strictjson"
	"strings"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

// Scenario is one calculation.
type Scenario struct {
	// Machine is the machine in full. When its ID names a preset and its
	// parameters equal the preset's, links name it by id; otherwise links
	// carry it inline.
	Machine machine.Machine `json:"machine"`
	Kernel  string          `json:"kernel"`
	Params  mbram.Params    `json:"params"`
	// Compare lists further kernels drawn on the sweep chart.
	Compare []string `json:"compare,omitempty"`
	// SweepFrom and SweepTo bound the sweep chart's N axis; 0 means the
	// viewer's default.
	SweepFrom int64 `json:"sweep_from,omitempty"`
	SweepTo   int64 `json:"sweep_to,omitempty"`
}

// Lookup finds a preset machine by id (presets.Machine has this signature;
// the engine cannot import presets, which imports the engine).
type Lookup func(id string) (machine.Machine, bool)

// Default machine and workload: the 1.7 GHz Pentium 4 and the quicksort of
// the MBRAM paper Fig. 5 (N = 8Mi four-byte integers, 64 buckets for the bucket and
// radix sorts), whose printed prediction is 1.51 s.
const (
	DefaultMachine = "p4-1.7-pc133"
	DefaultKernel  = "quicksort"
	DefaultN       = 8 << 20
)

// Default returns the default scenario. With no such preset (a build
// without presets) it falls back to the MBRAM paper's printed parameters.
func Default(presets Lookup) Scenario {
	m, ok := machine.Machine{}, false
	if presets != nil {
		m, ok = presets(DefaultMachine)
	}
	if !ok {
		m = machine.Machine{ID: DefaultMachine, Name: "1.7 GHz Pentium 4 / PC-133",
			Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
	}
	return Scenario{Machine: m, Kernel: DefaultKernel, Params: mbram.DefaultParams(DefaultN), Compare: DefaultCompare(DefaultKernel)}
}

// DefaultCompare is what the sweep chart compares a kernel with when the
// user has not chosen: the other kernels of its family. For a sort those
// are the other six sorts, so the chart opens as the MBRAM paper Fig. 5
// does; for the permutation products the other one (the story of Fig. 1);
// for the matrix product nothing.
func DefaultCompare(kernel string) []string {
	k, ok := mbram.Lookup(kernel)
	if !ok {
		return nil
	}
	var out []string
	for _, c := range mbram.Kernels() {
		if c.Family == k.Family && c.ID != kernel {
			out = append(out, c.ID)
		}
	}
	return out
}

// Predict evaluates the scenario's kernel on its machine.
func (s Scenario) Predict() (mbram.Breakdown, error) {
	return mbram.Predict(s.Machine, s.Kernel, s.Params)
}

// Validate checks the machine, the kernel and its workload, the compared
// kernels and the sweep range. It returns nil or Problems naming each key.
func (s Scenario) Validate() error {
	var ps Problems
	if err := s.Machine.Validate(); err != nil {
		ps = append(ps, machineProblems(err)...)
	}
	k, ok := mbram.Lookup(s.Kernel)
	if !ok {
		ps = append(ps, Problem{Field: "kernel", Msg: mbram.ErrUnknownKernel(s.Kernel).Error()})
	} else if err := k.Check(s.Params); err != nil {
		ps = append(ps, paramProblem(err))
	}
	for _, c := range s.Compare {
		if _, ok := mbram.Lookup(c); !ok {
			ps = append(ps, Problem{Field: "cmp", Msg: fmt.Sprintf("unknown kernel %q", c)})
		}
	}
	if s.SweepFrom < 0 || s.SweepTo < 0 || (s.SweepTo != 0 && s.SweepFrom >= s.SweepTo) {
		ps = append(ps, Problem{Field: "from", Msg: fmt.Sprintf("the sweep must run from a smaller to a larger N; got %d to %d", s.SweepFrom, s.SweepTo)})
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// JSON writes the scenario as an indented JSON document.
func (s Scenario) JSON() []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return []byte("{}\n")
	}
	return append(b, '\n')
}

// MaxJSONSize bounds a scenario file; a real one is under a kilobyte.
const MaxJSONSize = 64 << 10

// ParseJSON reads a scenario document and validates it.
func ParseJSON(data []byte) (Scenario, error) {
	if len(data) > MaxJSONSize {
		return Scenario{}, fmt.Errorf("scenario file: %d bytes is larger than the %d accepted", len(data), MaxJSONSize)
	}
	data, err := strictjson.Check(data, "scenario file")
	if err != nil {
		return Scenario{}, err
	}
	var s Scenario
	if err := json.Unmarshal(data, &s); err != nil {
		return Scenario{}, fmt.Errorf("scenario file: %v", err)
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// ParseParam reads a workload parameter as every door writes it: n, b and
// the sweep bounds as counts ("8Mi", "2^23", "8388608"), w as a size in
// bytes ("4", "8B"). The form, the link, the scenario file and the CLI's
// --set all read n, w and b through it, so they accept the same text.
func ParseParam(name, text string) (int64, error) {
	text = strings.TrimSpace(text)
	if name == "w" {
		return units.ParseSize(text)
	}
	return units.ParseCount(text)
}
