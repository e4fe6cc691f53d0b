package presets

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"sync"

	"memwall/engine/mbram"
)

//go:embed validation/*.json
var validationFiles embed.FS

// ValidationRow is one kernel run of `memwall validate`: what was measured on
// a real machine beside what the closed form predicted for it.
type ValidationRow struct {
	Kernel   string  `json:"kernel"`
	Params   string  `json:"params"` // as printed, e.g. "N=8Mi, b=64"
	N        int64   `json:"n"`
	W        int64   `json:"w"`
	Buckets  int64   `json:"b"`
	Measured float64 `json:"measured_seconds"`
	Spread   float64 `json:"measured_spread"`
	// Range is how much slower the slowest round's fastest run was than
	// the fastest round's (validate's measured_range; 0 when the file
	// does not say), which `memwall validate --rows` judges pairs with.
	Range       float64 `json:"measured_range,omitempty"`
	Repetitions int     `json:"repetitions"`
	Predicted   float64 `json:"predicted_seconds"`
	Regime      string  `json:"regime"`
	// Class is the size class of a `--sizes levels` run (l2, llc,
	// beyond) and Hier the hierarchy model's prediction for the row
	// (engine/hier), both empty in tables of the paper's sizes.
	Class string  `json:"class,omitempty"`
	Hier  float64 `json:"hier_predicted_seconds,omitempty"`
}

// Workload returns the row's kernel parameters; files that leave out the
// word size or radix used the defaults (4-byte words, 64 buckets).
func (r ValidationRow) Workload() mbram.Params {
	p := mbram.Params{N: r.N, W: r.W, Buckets: r.Buckets}
	if p.W == 0 {
		p.W = 4
	}
	if p.Buckets == 0 {
		p.Buckets = 64
	}
	return p
}

// ValidationSet is a measured-versus-predicted table of one machine.
type ValidationSet struct {
	ID      string          `json:"id"`
	Title   string          `json:"title"`
	Source  string          `json:"source"`
	Machine string          `json:"machine"` // preset id
	Sizes   string          `json:"sizes"`
	Rows    []ValidationRow `json:"rows"`
}

var (
	validationOnce sync.Once
	validationSets []ValidationSet
	validationErr  error
)

func loadValidation() {
	entries, err := validationFiles.ReadDir("validation")
	if err != nil {
		validationErr = err
		return
	}
	for _, e := range entries {
		data, err := validationFiles.ReadFile(path.Join("validation", e.Name()))
		if err != nil {
			validationErr = err
			return
		}
		var s ValidationSet
		if err := json.Unmarshal(data, &s); err != nil {
			validationErr = fmt.Errorf("validation %s: %w", e.Name(), err)
			return
		}
		if _, ok := Machine(s.Machine); !ok {
			validationErr = fmt.Errorf("validation %s: machine %q is not a preset", e.Name(), s.Machine)
			return
		}
		for i, r := range s.Rows {
			if _, ok := mbram.Lookup(r.Kernel); !ok || r.N < 1 || !(r.Measured > 0) {
				validationErr = fmt.Errorf("validation %s: row %d (%s) is incomplete", e.Name(), i+1, r.Kernel)
				return
			}
		}
		validationSets = append(validationSets, s)
	}
	sort.Slice(validationSets, func(i, j int) bool { return validationSets[i].ID < validationSets[j].ID })
}

// ValidationSets returns the measured-versus-predicted tables that ship
// with memwall.
func ValidationSets() ([]ValidationSet, error) {
	validationOnce.Do(loadValidation)
	return validationSets, validationErr
}
