package lang

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"memwall/engine/link"
	"memwall/engine/machine"
	"memwall/engine/scenario"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// Scenario is everything a program's calculation needs: the page, its
// share link, a scenario file and `memwall run` all go through it.
type Scenario struct {
	Machine machine.Machine `json:"machine"`
	// Source is the program; Compare, if set, a second program drawn
	// beside it over the size (the A/B view).
	Source  string `json:"source"`
	Compare string `json:"compare,omitempty"`
	// Params set the programs' params (the rest keep their defaults).
	Params    map[string]int64 `json:"params,omitempty"`
	Seed      uint64           `json:"seed"`
	Predictor string           `json:"predictor"`
	Branches  string           `json:"branches"`
	// At, if set, is a size to predict by extrapolation.
	At int64 `json:"at,omitempty"`
	// Kernel names the built-in kernel whose closed form is shown beside
	// the program ("" for none).
	Kernel string `json:"kernel,omitempty"`
	// MissCurve asks for the run's miss curve over every cache size
	// (link key curve=1).
	MissCurve bool `json:"miss_curve,omitempty"`
}

// Link limits: a typical program fits in about 2 KB once compressed.
const (
	MaxLink     = 2048
	MaxFragment = 8192
)

// Validate checks every field, returning all problems at once.
func (s Scenario) Validate() scenario.Problems {
	var ps scenario.Problems
	if err := s.Machine.Validate(); err != nil {
		ps = append(ps, scenario.Problem{Field: "machine", Msg: err.Error()})
	}
	if strings.TrimSpace(s.Source) == "" {
		ps = append(ps, scenario.Problem{Field: "prog", Msg: "the program is empty"})
	}
	if _, err := sim.ParsePredictor(s.Predictor); err != nil {
		ps = append(ps, scenario.Problem{Field: "pred", Msg: "must be majority or 2bit"})
	}
	if _, err := ParseBranches(s.Branches); err != nil {
		ps = append(ps, scenario.Problem{Field: "br", Msg: "must be all or data"})
	}
	if s.At < 0 {
		ps = append(ps, scenario.Problem{Field: "at", Msg: "must be a size of at least 1"})
	}
	for k, v := range s.Params {
		if v < 0 {
			ps = append(ps, scenario.Problem{Field: "p." + k, Msg: fmt.Sprintf("must be from 0 to 2^62; got %d", v)})
		}
	}
	return ps
}

// Options are the run options of the scenario.
func (s Scenario) Options() (sim.Predictor, Options, error) {
	pred, err := sim.ParsePredictor(s.Predictor)
	if err != nil {
		return 0, Options{}, err
	}
	br, err := ParseBranches(s.Branches)
	if err != nil {
		return 0, Options{}, err
	}
	params := map[string]int64{}
	for k, v := range s.Params {
		params[k] = v
	}
	return pred, Options{Params: params, Seed: s.Seed, Branches: br, MissCurve: s.MissCurve}, nil
}

// Fragment writes the scenario as a share-link fragment: the machine as
// every page writes it, each program compressed (raw DEFLATE, base64url),
// the params readable. A fragment over MaxLink is refused with a message
// that offers a file.
func (s Scenario) Fragment(presets scenario.Lookup) (string, error) {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	scenario.WriteMachine(add, s.Machine, presets)
	add("prog", pack(s.Source))
	if s.Compare != "" {
		add("cmp", pack(s.Compare))
	}
	names := make([]string, 0, len(s.Params))
	for k := range s.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		add("p."+k, units.FormatCount(s.Params[k]))
	}
	if s.Seed != 1 {
		add("seed", strconv.FormatUint(s.Seed, 10))
	}
	if s.Predictor != "" && s.Predictor != "majority" {
		add("pred", s.Predictor)
	}
	if s.Branches != "" && s.Branches != "all" {
		add("br", s.Branches)
	}
	if s.At > 0 {
		add("at", units.FormatCount(s.At))
	}
	if s.Kernel != "" {
		add("kernel", s.Kernel)
	}
	if s.MissCurve {
		add("curve", "1")
	}
	if b.Len() > MaxLink {
		return "", fmt.Errorf("this program needs a %d-byte link, more than the %d a link may carry; save it as a file (Download) and share the file instead", b.Len(), MaxLink)
	}
	return b.String(), nil
}

// pack compresses a program for a link.
func pack(src string) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write([]byte(src))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// unpack reverses pack, refusing what does not decode or expands past
// MaxSource.
func unpack(s string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("is not a program written by memwall (it does not decode)")
	}
	r := flate.NewReader(bytes.NewReader(raw))
	out, err := io.ReadAll(io.LimitReader(r, MaxSource+1))
	if err != nil {
		return "", fmt.Errorf("is not a program written by memwall (it does not decompress)")
	}
	if len(out) > MaxSource {
		return "", fmt.Errorf("holds a program of more than %d bytes", MaxSource)
	}
	return string(out), nil
}

// ParseFragment reads a link's fragment over base. It never fails
// outright: every good key is applied and each bad one is a problem, so a
// link with one typo still opens with the rest.
func ParseFragment(fragment string, base Scenario, presets scenario.Lookup) (Scenario, scenario.Problems) {
	s := base
	s.Params = map[string]int64{}
	for k, v := range base.Params {
		s.Params[k] = v
	}
	mvals := map[string]string{}
	problem := func(key, msg string) *scenario.Problem { return &scenario.Problem{Field: key, Msg: msg} }
	ps := link.Limits{Fragment: MaxFragment, Value: MaxFragment}.Each(fragment, func(key, val string) *scenario.Problem {
		switch {
		case scenario.MachineKey(key):
			mvals[key] = val
		case key == "prog" || key == "cmp":
			src, err := unpack(val)
			if err != nil {
				return problem(key, "the program in the link "+err.Error())
			}
			if key == "prog" {
				s.Source = src
			} else {
				s.Compare = src
			}
		case strings.HasPrefix(key, "p."):
			name := key[2:]
			n, err := units.ParseCount(val)
			if err != nil || !isIdentName(name) {
				return problem(key, fmt.Sprintf("param %s: %v", clip(name), errOr(err, "not a name")))
			}
			s.Params[name] = n
		case key == "seed":
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return problem(key, "the data seed must be a whole number from 0 to 2^64-1")
			}
			s.Seed = n
		case key == "pred":
			if _, err := sim.ParsePredictor(val); err != nil {
				return problem(key, "the branch predictor must be majority or 2bit")
			}
			s.Predictor = val
		case key == "br":
			if _, err := ParseBranches(val); err != nil {
				return problem(key, "branches must be all or data")
			}
			s.Branches = val
		case key == "at":
			n, err := units.ParseCount(val)
			if err != nil || n < 1 {
				return problem(key, fmt.Sprintf("the size to predict: %v", errOr(err, "must be at least 1")))
			}
			s.At = n
		case key == "kernel":
			s.Kernel = val
		case key == "curve":
			if val != "0" && val != "1" {
				return problem(key, "the miss curve is 1 (drawn) or 0 (not)")
			}
			s.MissCurve = val == "1"
		default:
			return problem("link", fmt.Sprintf("unknown key %q was ignored", clip(key)))
		}
		return nil
	})
	if len(mvals) > 0 {
		m, mps := scenario.ReadMachine(mvals, s.Machine, presets)
		s.Machine = m
		ps = append(ps, mps...)
	}
	return s, ps
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

func isIdentName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentStart(s[i]) && !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// JSON is the scenario file.
func (s Scenario) JSON() []byte {
	b, _ := json.MarshalIndent(s, "", "  ")
	return append(b, '\n')
}

// ParseJSON reads a scenario file.
func ParseJSON(data []byte) (Scenario, error) {
	var s Scenario
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Scenario{}, fmt.Errorf("scenario file: %v", err)
	}
	if dec.More() {
		return Scenario{}, fmt.Errorf("scenario file: text after the scenario")
	}
	if s.Predictor == "" {
		s.Predictor = "majority"
	}
	if s.Branches == "" {
		s.Branches = "all"
	}
	if ps := s.Validate(); len(ps) > 0 {
		return Scenario{}, fmt.Errorf("scenario file: %v", ps)
	}
	return s, nil
}
