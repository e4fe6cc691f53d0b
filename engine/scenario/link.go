package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memwall/engine/link"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

// Link limits: those of every link (package link), and a machine name's.
const (
	MaxLink     = link.MaxLink
	MaxFragment = link.MaxFragment
	maxName     = 200
)

// CustomMachine is the machine key's value when the machine is inline.
const CustomMachine = "custom"

// machineKeys are the inline machine's keys, in link order.
var machineKeys = append([]string{"name", "beta1", "beta2", "mu1", "cache", "line", "mispredict"}, hierarchyKeys...)

// knownKeys are every key a link may carry.
var knownKeys = map[string]bool{"machine": true, "kernel": true, "n": true, "w": true, "b": true, "cmp": true, "from": true, "to": true}

func init() {
	for _, k := range machineKeys {
		knownKeys[k] = true
	}
}

// Fragment writes the scenario as a share-link fragment (without the "#").
// A preset machine whose numbers are unchanged is written by id, any other
// machine inline. It refuses a scenario whose link would exceed MaxLink.
func (s Scenario) Fragment(presets Lookup) (string, error) {
	var b link.Builder
	add := b.AddEmpty
	WriteMachine(add, s.Machine, presets)
	add("kernel", s.Kernel)
	add("n", units.FormatCount(s.Params.N))
	add("w", strconv.FormatInt(s.Params.W, 10))
	// b is written for the kernels that use it, and for the others when it
	// is not the default, so a link round-trips whatever the kernel.
	if k, ok := mbram.Lookup(s.Kernel); ok && (usesParam(k, "b") || s.Params.Buckets != mbram.DefaultParams(0).Buckets) {
		add("b", strconv.FormatInt(s.Params.Buckets, 10))
	}
	// cmp is written only when it differs from the kernel's default, so
	// the common link stays short; an empty cmp= means "compare nothing".
	if !slices.Equal(s.Compare, DefaultCompare(s.Kernel)) {
		add("cmp", strings.Join(s.Compare, ","))
	}
	if s.SweepFrom > 0 {
		add("from", units.FormatCount(s.SweepFrom))
	}
	if s.SweepTo > 0 {
		add("to", units.FormatCount(s.SweepTo))
	}
	return b.Fragment()
}

// WriteMachine writes a machine's link keys through add: a preset whose
// numbers are unchanged by id, any other machine inline. Every page's link
// writes its machine this way.
func WriteMachine(add func(key, value string), m machine.Machine, presets Lookup) {
	if p, ok := lookup(presets, m.ID); ok && p.SameParameters(m) {
		add("machine", p.ID)
		return
	}
	add("machine", CustomMachine)
	if m.Name != "" {
		add("name", m.Name)
	}
	add("beta1", exact(m.Beta1, units.ParseBandwidth, bandwidthForms))
	add("beta2", exact(m.Beta2, units.ParseBandwidth, bandwidthForms))
	add("mu1", strconv.Itoa(m.Mu1))
	add("cache", exactSize(m.C))
	add("line", exactSize(m.B))
	add("mispredict", exact(m.M, units.ParseDuration, durationForms))
	writeHierarchy(add, m)
}

// MachineKey reports whether a link key belongs to the machine.
func MachineKey(k string) bool { return k == "machine" || slices.Contains(machineKeys, k) }

// ReadMachine applies a link's machine keys (vals, already unescaped) over
// m and returns the machine with the problems of the keys it could not
// use; with problems the machine is m unchanged.
func ReadMachine(vals map[string]string, m machine.Machine, presets Lookup) (machine.Machine, Problems) {
	s := Scenario{Machine: m}
	ps := s.applyMachine(vals, presets)
	return s.Machine, ps
}

// ParseFragment reads a share-link fragment (with or without the leading
// "#"). It never fails outright: it returns the scenario with every good key
// applied over base, and one Problem for each key it could not use, so a
// link with one typo still opens with the rest of its numbers.
func ParseFragment(fragment string, base Scenario, presets Lookup) (Scenario, Problems) {
	s := base
	s.Compare = append([]string(nil), base.Compare...)
	vals := map[string]string{}
	ps := link.Each(fragment, func(key, val string) *Problem {
		if !knownKeys[key] {
			return &Problem{Field: "link", Msg: fmt.Sprintf("unknown key %q was ignored", clip(key))}
		}
		vals[key] = val
		return nil
	})
	if len(vals) == 0 {
		return s, ps
	}
	ps = append(ps, s.applyMachine(vals, presets)...)
	ps = append(ps, s.applyWorkload(vals)...)
	return s, ps
}

// applyMachine sets the machine from the machine key and the inline keys.
// Inline keys apply over the named preset (or over the current machine for
// machine=custom), so a link may change one number of a preset.
func (s *Scenario) applyMachine(vals map[string]string, presets Lookup) Problems {
	var ps Problems
	m := s.Machine
	if id, ok := vals["machine"]; ok && id != CustomMachine {
		p, found := lookup(presets, id)
		if !found {
			return append(ps, Problem{Field: "machine", Msg: fmt.Sprintf("no preset machine is called %q; the machine was left as %s", clip(id), s.Machine.Name)})
		}
		m = p
	}
	inline := false
	for _, k := range machineKeys {
		if _, ok := vals[k]; ok {
			inline = true
		}
	}
	if !inline {
		s.Machine = m
		return ps
	}
	m.ID = ""
	if v, ok := vals["name"]; ok {
		if len(v) > maxName {
			ps = append(ps, Problem{Field: "name", Msg: fmt.Sprintf("a name may have at most %d bytes", maxName)})
			v = v[:maxName]
		}
		m.Name = v
	}
	// A bad value is named and the value the machine had is kept, so the
	// rest of the link's machine is used.
	base := m
	set := func(key string, parse func(string) error) {
		if v, ok := vals[key]; ok {
			if err := parse(v); err != nil {
				ps = append(ps, Problem{Field: key, Msg: err.Error() + "; " + keptValue(key, base)})
				restoreField(&m, base, key)
			}
		}
	}
	set("beta1", func(v string) (err error) { m.Beta1, err = units.ParseBandwidth(v); return })
	set("beta2", func(v string) (err error) { m.Beta2, err = units.ParseBandwidth(v); return })
	set("mu1", func(v string) error {
		n, err := units.ParseCount(v)
		if err == nil && n > machine.MaxMu1 {
			err = fmt.Errorf("at most %d streams", machine.MaxMu1)
		}
		m.Mu1 = int(n)
		return err
	})
	set("cache", func(v string) (err error) { m.C, err = units.ParseSize(v); return })
	set("line", func(v string) (err error) { m.B, err = units.ParseSize(v); return })
	set("mispredict", func(v string) (err error) { m.M, err = units.ParseDuration(v); return })
	ps = append(ps, applyHierarchy(vals, &m, base)...)
	if err := m.Validate(); err != nil {
		// Values that read but do not make a machine (β1 = 0, β2 above
		// β1): each refused one is named and takes the value it had.
		var es machine.Errors
		if !errors.As(err, &es) {
			return append(ps, machineProblems(err)...)
		}
		for _, e := range es {
			ps = append(ps, Problem{Field: e.Field, Msg: e.Msg + "; " + keptValue(e.Field, base)})
			restoreField(&m, base, e.Field)
		}
		if err := m.Validate(); err != nil {
			return append(ps, Problem{Field: "machine", Msg: "the link's machine does not hold together; the machine was left as " + s.Machine.Name})
		}
	}
	if m.Name == "" {
		m.Name = "machine from a link"
	}
	s.Machine = m
	return ps
}

// restoreField puts base's value of one machine key back into m.
func restoreField(m *machine.Machine, base machine.Machine, key string) {
	switch key {
	case "beta1":
		m.Beta1 = base.Beta1
	case "beta2":
		m.Beta2 = base.Beta2
	case "mu1":
		m.Mu1 = base.Mu1
	case "cache":
		m.C = base.C
	case "line":
		m.B = base.B
	case "mispredict":
		m.M = base.M
	default:
		restoreHierarchy(m, base, key)
	}
}

// keptValue says which value a refused key of a link's machine kept.
func keptValue(key string, base machine.Machine) string {
	v := ""
	switch key {
	case "beta1":
		v = units.FormatBandwidth(base.Beta1)
	case "beta2":
		v = units.FormatBandwidth(base.Beta2)
	case "mu1":
		v = strconv.Itoa(base.Mu1)
	case "cache":
		v = units.FormatSize(base.C)
	case "line":
		v = units.FormatSize(base.B)
	case "mispredict":
		v = units.FormatSeconds(base.M)
	default:
		if kept, ok := keptHierarchy(key, base); ok {
			return kept
		}
		return "the machine's other values were used"
	}
	return key + " = " + v + " of " + base.Name + " was used instead"
}

// applyWorkload sets the kernel, its parameters, the compared kernels and
// the sweep range. A kernel change without n takes the kernel's default n.
func (s *Scenario) applyWorkload(vals map[string]string) Problems {
	var ps Problems
	kernel, params := s.Kernel, s.Params
	if id, ok := vals["kernel"]; ok {
		k, found := mbram.Lookup(id)
		if !found {
			ps = append(ps, Problem{Field: "kernel", Msg: mbram.ErrUnknownKernel(clip(id)).Error()})
		} else if id != kernel {
			kernel = id
			if _, hasN := vals["n"]; !hasN {
				if n, ok := k.Param("n"); ok {
					params.N = n.Default
				}
			}
		}
	}
	count := func(key string, dst *int64) {
		if v, ok := vals[key]; ok {
			n, err := ParseParam(key, v)
			if err != nil {
				ps = append(ps, Problem{Field: key, Msg: err.Error()})
				return
			}
			*dst = n
		}
	}
	count("n", &params.N)
	count("w", &params.W)
	count("b", &params.Buckets)
	if _, given := vals["b"]; given && (params.Buckets < 2 || params.Buckets > mbram.MaxRadix) {
		// Checked whatever the kernel, so that switching to a bucket or
		// radix sort later never meets a bad b.
		ps = append(ps, Problem{Field: "b", Msg: fmt.Sprintf("buckets must be a whole number from 2 to %d; got %d", mbram.MaxRadix, params.Buckets)})
		params.Buckets = s.Params.Buckets
	}
	if k, ok := mbram.Lookup(kernel); ok {
		if err := k.Check(params); err != nil {
			ps = append(ps, paramProblem(err))
		} else {
			s.Kernel, s.Params = kernel, params
		}
	}
	if v, ok := vals["cmp"]; !ok {
		if _, named := vals["kernel"]; named {
			s.Compare = DefaultCompare(s.Kernel)
		}
	} else {
		s.Compare = s.Compare[:0]
		for _, id := range strings.Split(v, ",") {
			id = strings.TrimSpace(id)
			if id == "" {
				continue
			}
			if _, found := mbram.Lookup(id); !found {
				ps = append(ps, Problem{Field: "cmp", Msg: fmt.Sprintf("unknown kernel %q was left out of the comparison", clip(id))})
				continue
			}
			s.Compare = append(s.Compare, id)
		}
	}
	from, to := s.SweepFrom, s.SweepTo
	count("from", &from)
	count("to", &to)
	if from > 0 && to > 0 && from >= to {
		ps = append(ps, Problem{Field: "from", Msg: fmt.Sprintf("the sweep must start below its end; got from %s to %s", units.FormatCount(from), units.FormatCount(to))})
	} else {
		s.SweepFrom, s.SweepTo = from, to
	}
	return ps
}

func lookup(presets Lookup, id string) (machine.Machine, bool) {
	if presets == nil || id == "" {
		return machine.Machine{}, false
	}
	return presets(id)
}

func usesParam(k mbram.Kernel, name string) bool {
	_, ok := k.Param(name)
	return ok
}

// clip shortens untrusted text quoted back in a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
