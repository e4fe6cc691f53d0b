package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"memwall/engine/field"
	"memwall/engine/link"
	"memwall/engine/sim"
	"memwall/internal/strictjson"
)

// Run is one simulated run of a kernel: the scenario's machine, kernel and
// workload, the data's random seed and the branch predictor. The Simulate
// page, its link, its scenario file and memwall simulate --link|--scenario
// all read it through this type.
type Run struct {
	Scenario
	Seed      uint64 `json:"seed"`
	Predictor string `json:"predictor"`
	// MissCurve asks for the run's miss curve over every cache size
	// (link key curve=1).
	MissCurve bool `json:"miss_curve,omitempty"`
}

// DefaultRun is the default scenario run with random seed 1 and the MBRAM
// paper's majority predictor.
func DefaultRun(presets Lookup) Run {
	s := Default(presets)
	s.Compare = nil
	return Run{Scenario: s, Seed: 1, Predictor: sim.Majority.String()}
}

// Pred returns the run's branch predictor.
func (r Run) Pred() sim.Predictor {
	p, err := sim.ParsePredictor(r.Predictor)
	if err != nil {
		return sim.Majority
	}
	return p
}

// ParseRunFragment reads a Simulate link over base: seed, pred and curve here,
// every other key as ParseFragment reads it, so machines and workloads read
// exactly as on the Kernels page. It never fails: bad keys become problems
// and base's values stay. A Kernels link opens with its machine and
// workload; its sweep and comparison are not a run's.
func ParseRunFragment(fragment string, base Run, presets Lookup) (Run, Problems) {
	out := base
	if f := link.FromArg(fragment); len(f) > link.MaxFragment {
		return base, Problems{{Field: link.Field, Msg: fmt.Sprintf("the link's inputs are %d bytes long, more than the %d accepted; nothing was read from them", len(f), link.MaxFragment)}}
	}
	var rest []string
	var ps Problems
	for _, pair := range strings.Split(link.FromArg(fragment), "&") {
		k, v, _ := strings.Cut(pair, "=")
		val, err := url.QueryUnescape(v)
		if (k != "seed" && k != "pred" && k != "curve") || err != nil {
			rest = append(rest, pair) // ParseFragment names a bad pair
			continue
		}
		switch val = strings.TrimSpace(val); k {
		case "seed":
			out.Seed, err = ParseSeed(val)
		case "pred":
			if _, err = sim.ParsePredictor(val); err != nil {
				err = errors.New(`the branch predictor is "majority" or "2bit"`)
			} else {
				out.Predictor = val
			}
		case "curve":
			switch val {
			case "1":
				out.MissCurve = true
			case "0":
				out.MissCurve = false
			default:
				err = errors.New("the miss curve is 1 (drawn) or 0 (not)")
			}
		}
		if err != nil {
			ps = append(ps, Problem{Field: k, Msg: err.Error()})
		}
	}
	s, probs := ParseFragment(strings.Join(rest, "&"), base.Scenario, presets)
	s.Compare, s.SweepFrom, s.SweepTo = nil, 0, 0
	out.Scenario = s
	return out, append(ps, probs...)
}

// ParseSeed reads a random seed: a whole number from 0 to 2^64 − 1.
func ParseSeed(t string) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(t), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("the random seed is a whole number from 0 to %d", uint64(1<<64-1))
	}
	return v, nil
}

// Fragment writes the run as a link fragment.
func (r Run) Fragment(presets Lookup) (string, error) {
	s := r.Scenario
	s.Compare, s.SweepFrom, s.SweepTo = nil, 0, 0
	f, err := s.Fragment(presets)
	if err != nil {
		return "", err
	}
	f += "&seed=" + strconv.FormatUint(r.Seed, 10) + "&pred=" + r.Pred().String()
	if r.MissCurve {
		f += "&curve=1"
	}
	return f, nil
}

// JSON writes the run as an indented scenario file.
func (r Run) JSON() []byte {
	r.Compare, r.SweepFrom, r.SweepTo = nil, 0, 0
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return []byte("{}\n")
	}
	return append(b, '\n')
}

// ParseRunJSON reads a run's scenario file and validates it. A Kernels
// scenario file (no seed or predictor) reads as a run with seed 1 and the
// majority predictor.
func ParseRunJSON(data []byte) (Run, error) {
	if len(data) > MaxJSONSize {
		return Run{}, fmt.Errorf("scenario file: %d bytes is larger than the %d accepted", len(data), MaxJSONSize)
	}
	r := Run{Seed: 1, Predictor: sim.Majority.String()}
	if err := strictjson.Decode(data, &r, "scenario file"); err != nil {
		return Run{}, err
	}
	var ps Problems
	if err := r.Scenario.Validate(); err != nil {
		ps = append(ps, field.From(err, "scenario")...)
	}
	if _, err := sim.ParsePredictor(r.Predictor); err != nil {
		ps = append(ps, Problem{Field: "predictor", Msg: `the branch predictor is "majority" or "2bit"`})
	}
	return r, ps.Err()
}
