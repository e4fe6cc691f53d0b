package superstep

import (
	"fmt"
	"strconv"
	"strings"

	"memwall/engine/field"
	"memwall/engine/link"
	"memwall/engine/units"
)

// Coefficient-set choices of the coef key.
const (
	CoefPublished = "published" // the SGI Power Challenge's published coefficients
	CoefTyped     = "typed"
	// oldCoefPublished is what links of earlier versions call the
	// published set; they still open it.
	oldCoefPublished = "seed"
)

// MaxMeasuredSteps is the most supersteps a sort has (sample and column
// sort: 5).
const MaxMeasuredSteps = 5

// Form is the superstep model's inputs: the sort (algo, n, p, b, r, s),
// the coefficients (coef, and good, good1, bad and C when typed in) and the
// measured times (tm: one per superstep, comma-separated, "-" for none;
// tmt: the whole sort). The Supersteps page, its link, its scenario file and
// memwall supersteps --link|--scenario all read them through it.
var Form = link.Form{
	Model:    "supersteps",
	Keys:     []string{"algo", "n", "p", "b", "r", "s", "coef", "good", "good1", "bad", "C", "tm", "tmt"},
	Defaults: defaultInputs,
	Skip: func(in link.Inputs, k string) bool {
		algo := strings.TrimSpace(in["algo"])
		switch k {
		case "b", "r":
			return algo != "radix"
		case "s":
			return algo != "sample"
		case "good", "good1", "bad", "C":
			return in["coef"] != CoefTyped
		}
		return false
	},
	Fill: fillInputs,
}

// defaultInputs: radix sort of a million integers on 8 processors with the
// published coefficients, the sizes of the superstep paper's section 5.2.
func defaultInputs() link.Inputs {
	d := link.Inputs{"algo": "radix", "n": "1000000", "p": "8", "b": "32", "r": "6", "s": "100", "coef": CoefPublished, "tm": "", "tmt": ""}
	for k, v := range TypedDefaults(8) {
		d[k] = v
	}
	return d
}

// TypedDefaults are the typed-coefficient fields filled with the published
// coefficients for p, or for p = 8 when none are published for p.
func TypedDefaults(p int) link.Inputs {
	set, err := SGIPowerChallenge(p)
	if err != nil {
		set, _ = SGIPowerChallenge(8)
	}
	return link.Inputs{
		"good":  FormatCoefficients(HrHwMc, set.GoodR0),
		"good1": FormatCoefficients(HrHwMc, *set.GoodR1),
		"bad":   FormatCoefficients(HrHwM, set.Bad),
		"C":     "2^19",
	}
}

// fillInputs: a link with typed coefficients carries all it has (an absent good1
// means one Good function for every h); one without them takes the
// published ones for its p.
func fillInputs(vals link.Inputs) link.Inputs {
	in := defaultInputs()
	_, g0 := vals["good"]
	_, g1 := vals["good1"]
	_, gb := vals["bad"]
	if g0 || g1 || gb {
		in["good"], in["good1"], in["bad"] = "", "", ""
	} else if pv, err := strconv.Atoi(strings.TrimSpace(vals["p"])); err == nil {
		for k, v := range TypedDefaults(pv) {
			in[k] = v
		}
	}
	for k, v := range vals {
		if k == "coef" && v == oldCoefPublished {
			v = CoefPublished
		}
		in[k] = v
	}
	return in
}

// Scenario is the superstep model's inputs, parsed.
type Scenario struct {
	Algo   string
	N      int64
	P      int
	Params Params
	Set    Set
	// Steps are the measured times by superstep index (0-based); Total is
	// the measured time of the whole sort, or nil.
	Steps map[int]float64
	Total *float64
}

// MeasuredKey names the field of superstep i's measured time (1-based):
// the tm key holds them all, and a form shows one field each.
func MeasuredKey(i int) string { return "tm" + strconv.Itoa(i) }

// labels name each key in messages as the page's fields do.
var labels = map[string]string{
	"algo": "Algorithm", "n": "Elements n", "p": "Processors p", "b": "Key bits b", "r": "Radix bits r",
	"s": "Sample per processor", "C": "Cache size C (words)", "tmt": "Measured time of the whole sort",
}

// ParseScenario reads every input, naming each one that does not read by
// its key (superstep i's measured time by MeasuredKey(i)).
func ParseScenario(in link.Inputs) (Scenario, field.Errors) {
	var es field.Errors
	bad := map[string]bool{}
	add := func(key, msg string) {
		if !bad[key] {
			es = append(es, field.Error{Field: key, Msg: msg})
			bad[key] = true
		}
	}
	var sc Scenario
	sc.Algo = strings.TrimSpace(in["algo"])
	known := false
	for _, a := range Algorithms {
		known = known || a.ID == sc.Algo
	}
	if !known {
		add("algo", "Algorithm: choose radix, sample or column sort")
	}
	count := func(key string) int64 {
		v, err := units.ParseCount(strings.TrimSpace(in[key]))
		if err != nil {
			add(key, fmt.Sprintf("%s: %v", labels[key], err))
		}
		return v
	}
	small := func(key string, lo, hi int64) int {
		v := count(key)
		if !bad[key] && (v < lo || v > hi) {
			add(key, fmt.Sprintf("%s: %d is outside %d to %d", labels[key], v, lo, hi))
		}
		return int(v)
	}
	sc.N = count("n")
	sc.P = small("p", 1, MaxProcessors)
	switch sc.Algo {
	case "radix":
		sc.Params.KeyBits = small("b", 1, 64)
		sc.Params.RadixBits = small("r", 1, 24)
	case "sample":
		sc.Params.Oversample = small("s", 1, 1<<20)
	}

	if in["coef"] == CoefTyped {
		sc.Set = Set{Name: "typed in", Source: "typed in", P: sc.P, CacheWords: PublishedCacheWords}
		coef := func(key, label string, f Function) Coefficients {
			c, err := ParseCoefficients(f, in[key])
			if err != nil {
				add(key, label+": "+err.Error())
			}
			return c
		}
		split := strings.TrimSpace(in["good1"]) != ""
		sc.Set.GoodR0 = coef("good", map[bool]string{false: "Good, HrHwM-c", true: "Good for h <= C (R0)"}[split], HrHwMc)
		if split {
			r1 := coef("good1", "Good for h > C (R1)", HrHwMc)
			sc.Set.GoodR1 = &r1
		}
		sc.Set.Bad = coef("bad", "Bad, HrHwM", HrHwM)
		if c := count("C"); !bad["C"] {
			if c < 0 || c > MaxAccesses {
				add("C", labels["C"]+": between 0 and 2^50")
			}
			sc.Set.CacheWords = float64(c)
		}
	} else if !bad["p"] {
		set, err := SGIPowerChallenge(sc.P)
		if err != nil {
			add("p", "Processors p: the superstep paper's SGI Power Challenge has coefficients for p = 2, 4, 8 and 12; choose one of them or type coefficients in")
		}
		sc.Set = set
	}

	sc.Steps = map[int]float64{}
	duration := func(key, label, s string) (float64, bool) {
		s = strings.TrimSpace(s)
		if s == "" || s == "-" {
			return 0, false
		}
		v, err := units.ParseDuration(s)
		switch {
		case err == nil && v < 0:
			err = fmt.Errorf("%s is negative; a time >= 0 is needed", s)
		case err == nil && v > MaxSeconds:
			err = fmt.Errorf("%s is more than the %g s accepted", s, MaxSeconds)
		}
		if err != nil {
			add(key, label+": "+err.Error())
			return 0, false
		}
		return v, true
	}
	if tm := strings.TrimSpace(in["tm"]); tm != "" {
		parts := strings.Split(tm, ",")
		if len(parts) > MaxMeasuredSteps {
			add("tm", fmt.Sprintf("%d measured times; a sort has at most %d supersteps", len(parts), MaxMeasuredSteps))
			parts = parts[:MaxMeasuredSteps]
		}
		for i, t := range parts {
			if v, ok := duration(MeasuredKey(i+1), fmt.Sprintf("Measured time of superstep %d", i+1), t); ok {
				sc.Steps[i] = v
			}
		}
	}
	if v, ok := duration("tmt", labels["tmt"], in["tmt"]); ok {
		sc.Total = &v
	}
	return sc, es
}

// planPrefixes name the key of each engine message about a plan's inputs.
var planPrefixes = []struct{ prefix, key string }{
	{"algorithm", "algo"}, {"n = ", "n"}, {"p = ", "p"}, {"key bits", "b"}, {"radix bits", "r"}, {"oversampling", "s"},
}

// Evaluate plans the sort, bounds each superstep with the coefficients and
// places the measured times in their intervals. A measured time for a
// superstep the sort does not have (radix sort has four) is left out.
func (sc Scenario) Evaluate() (Prediction, Located, error) {
	plan, err := NewPlan(sc.Algo, sc.N, sc.P, sc.Params)
	if err != nil {
		msg := err.Error()
		for _, f := range planPrefixes {
			if strings.HasPrefix(msg, f.prefix) {
				return Prediction{}, Located{}, &field.Error{Field: f.key, Msg: labels[f.key] + ": " + msg}
			}
		}
		return Prediction{}, Located{}, &field.Error{Field: "n", Msg: msg}
	}
	steps := map[int]float64{}
	for i, v := range sc.Steps {
		if i < len(plan.Steps) {
			steps[i] = v
		}
	}
	pred, err := sc.Set.Predict(plan)
	if err != nil {
		return pred, Located{}, &field.Error{Field: "coef", Msg: "Coefficients: " + err.Error()}
	}
	loc, err := pred.Locate(steps, sc.Total)
	if err != nil {
		return pred, loc, &field.Error{Field: "coef", Msg: "Coefficients: " + err.Error()}
	}
	return pred, loc, nil
}
