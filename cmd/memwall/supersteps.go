package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"memwall/engine/superstep"
	"memwall/engine/units"
)

func init() {
	register(command{name: "supersteps", summary: "Good/Bad interval of a sort's shared-memory supersteps, Loc and M/G (the superstep paper)", run: runSupersteps})
}

const superstepsUsage = "--algo radix|sample|column --n N --p P [--coef FILE] [--measured T1,T2,...] [--measured-total T] [--json]"

func runSupersteps(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("supersteps", superstepsUsage, stderr)
	algo := fs.String("algo", "", "sorting algorithm: radix, sample or column (the superstep paper's Tables 9–11)")
	nArg := fs.String("n", "", "number of elements to sort, e.g. 1000000, 8Mi, 2^20")
	pArg := fs.String("p", "", "number of processors (with the superstep paper's coefficients: 2, 4, 8, 12; default: the coefficient file's)")
	coef := fs.String("coef", "", "coefficient JSON `file` (default: the SGI Power Challenge of the superstep paper's Tables 2 and 4)")
	// The defaults are the Supersteps page's: one set of defaults.
	d := superstep.Form.Defaults()
	atoi := func(k string) int { v, _ := strconv.Atoi(d[k]); return v }
	keyBits := fs.Int("key-bits", atoi("b"), "radix sort: bits per key b")
	radixBits := fs.Int("radix-bits", atoi("r"), "radix sort: bits per pass r (2^r counts per processor)")
	oversample := fs.Int("oversample", atoi("s"), "sample sort: sample elements per processor")
	measured := fs.String("measured", "", "measured time of one execution of each superstep, in table order, comma-separated with units (\"1.2ms,150us,-,3ms\"; - for none)")
	measuredTotal := fs.String("measured-total", "", "measured time of the whole sort, e.g. 85ms")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	inputs := addInputFlags(fs, "Supersteps")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	bad := func(format string, a ...any) int { return fail(stderr, "supersteps", fmt.Errorf(format, a...)) }
	if inputs.given() {
		in, err := inputs.read(superstep.Form)
		if err != nil {
			return fail(stderr, "supersteps", err)
		}
		sc, es := superstep.ParseScenario(in)
		if len(es) > 0 {
			return fail(stderr, "supersteps", es)
		}
		pr, loc, err := sc.Evaluate()
		if err != nil {
			return fail(stderr, "supersteps", err)
		}
		return printSupersteps(stdout, stderr, pr, loc, *asJSON)
	}
	known := false
	for _, a := range superstep.Algorithms {
		known = known || a.ID == *algo
	}
	if !known {
		return bad("--algo: %q is not an algorithm; give radix, sample or column", *algo)
	}
	if *nArg == "" {
		return bad("--n: give the number of elements, e.g. --n 1000000")
	}
	n, err := units.ParseCount(*nArg)
	if err != nil {
		return bad("--n: %v", err)
	}
	var set superstep.Set
	if *coef != "" {
		f, err := os.Open(*coef)
		if err != nil {
			return bad("--coef: %v", err)
		}
		set, err = superstep.ReadSet(f)
		f.Close()
		if err != nil {
			return bad("--coef %s: %v", *coef, err)
		}
	}
	var p int
	switch {
	case *pArg != "":
		v, err := units.ParseCount(*pArg)
		if err != nil {
			return bad("--p: %v", err)
		}
		if v < 1 || v > superstep.MaxProcessors {
			return bad("--p: %d processors; accepted 1 to %d", v, superstep.MaxProcessors)
		}
		p = int(v)
	case *coef != "":
		p = set.P
	default:
		return bad("--p: give the number of processors (2, 4, 8 or 12 with the superstep paper's coefficients)")
	}
	if *coef == "" {
		if set, err = superstep.SGIPowerChallenge(p); err != nil {
			return bad("--p: %v", err)
		}
	} else if set.P != p {
		return bad("--p: the coefficient file %s is for p = %d, not %d", *coef, set.P, p)
	}
	params := superstep.Params{KeyBits: *keyBits, RadixBits: *radixBits, Oversample: *oversample}
	if *keyBits == 0 || *radixBits == 0 || *oversample == 0 {
		return bad("--key-bits, --radix-bits and --oversample must be at least 1")
	}
	plan, err := superstep.NewPlan(*algo, n, p, params)
	if err != nil {
		return bad("%s", flagFor(err))
	}
	pr, err := set.Predict(plan)
	if err != nil {
		return bad("%v", err)
	}
	steps, err := parseMeasured(*measured, len(pr.Steps))
	if err != nil {
		return bad("--measured: %v", err)
	}
	var total *float64
	if *measuredTotal != "" {
		v, err := units.ParseDuration(*measuredTotal)
		if err != nil {
			return bad("--measured-total: %v", err)
		}
		if v < 0 || v > superstep.MaxSeconds {
			return bad("--measured-total: %s; accepted 0 to %g s", *measuredTotal, superstep.MaxSeconds)
		}
		total = &v
	}
	loc, err := pr.Locate(steps, total)
	if err != nil {
		return bad("--measured: %v", err)
	}
	return printSupersteps(stdout, stderr, pr, loc, *asJSON)
}

func printSupersteps(stdout, stderr io.Writer, pr superstep.Prediction, loc superstep.Located, asJSON bool) int {
	if asJSON {
		if err := writeJSON(stdout, superstepsJSON(pr, loc)); err != nil {
			return fail(stderr, "supersteps", err)
		}
		return 0
	}
	writeSuperstepsText(stdout, pr, loc)
	return 0
}

// flagFor names the flag behind an engine error about the plan's inputs.
func flagFor(err error) string {
	msg := err.Error()
	for prefix, flag := range map[string]string{"algorithm": "--algo", "n = ": "--n", "p = ": "--p", "key bits": "--key-bits", "radix bits": "--radix-bits", "oversampling": "--oversample"} {
		if strings.HasPrefix(msg, prefix) {
			return flag + ": " + msg
		}
	}
	return msg
}

// parseMeasured reads one time per superstep ("-" or empty for none).
func parseMeasured(s string, count int) (map[int]float64, error) {
	out := map[int]float64{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > count {
		return nil, fmt.Errorf("%d times given but the sort has %d supersteps", len(parts), count)
	}
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" || part == "-" {
			continue
		}
		v, err := units.ParseDuration(part)
		if err != nil {
			return nil, fmt.Errorf("superstep %d: %v", i+1, err)
		}
		if v < 0 || v > superstep.MaxSeconds {
			return nil, fmt.Errorf("superstep %d: %s; accepted 0 to %g s", i+1, part, superstep.MaxSeconds)
		}
		out[i] = v
	}
	return out, nil
}

func writeSuperstepsText(w io.Writer, pr superstep.Prediction, loc superstep.Located) {
	a := pr.Plan.Algorithm
	fmt.Fprintf(w, "%s (the superstep paper, %s), n = %d, p = %d\n", a.Name, a.Table, pr.Plan.N, pr.Plan.P)
	fmt.Fprintf(w, "coefficients: %s (%s); C = %s words\n", pr.Set.Name, pr.Set.Source, units.FormatCount(int64(pr.Set.CacheWords)))
	fmt.Fprintln(w, "Good: HrHwM-c = L + g_hrc·h_rc + g_hrm·h_rm + g_hwc·h_wc + g_hwm·h_wm + g_M·M; Bad: HrHwM = L + g_hr·h_r + g_hw·h_w + g_M·M")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	hasMeasured := len(loc.Steps) > 0 || loc.Total != nil
	header := "SS\tsuperstep\truns\th_r\th_w\tM\tregion\tt_g\tt_b\t"
	if hasMeasured {
		header += "t_m\tLoc\tM/G\t"
	}
	fmt.Fprintln(tw, header)
	for i, s := range pr.Steps {
		c := s.Step.Counts
		line := fmt.Sprintf("%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t", s.Step.Number, s.Step.Name, s.Step.Repeat,
			count(c.Hr), count(c.Hw), count(c.M), s.Interval.Region, units.FormatSeconds(s.Interval.Good), units.FormatSeconds(s.Interval.Bad))
		if hasMeasured {
			line += localityCells(loc.Steps, i)
		}
		fmt.Fprintln(tw, line)
	}
	total := fmt.Sprintf("\ttotal\t\t\t\t\t\t%s\t%s\t", units.FormatSeconds(pr.Good), units.FormatSeconds(pr.Bad))
	if loc.Total != nil {
		total += localityCells(map[int]superstep.Locality{0: *loc.Total}, 0)
	}
	fmt.Fprintln(tw, total)
	tw.Flush()
	if len(pr.Steps) > 0 && pr.Steps[0].Step.Repeat > 1 {
		fmt.Fprintf(w, "\nThe total counts each superstep %d times (%d passes of %d bits).\n", pr.Steps[0].Step.Repeat, pr.Steps[0].Step.Repeat, pr.Plan.Params.RadixBits)
	}
	if loc.TotalSummed {
		fmt.Fprintln(w, "The measured total is the sum of the supersteps' times, each times its runs.")
	}
	var notes []string
	for i, s := range pr.Steps {
		if l, ok := loc.Steps[i]; ok {
			notes = append(notes, undefined(fmt.Sprintf("superstep %d", s.Step.Number), l)...)
		}
	}
	if loc.Total != nil {
		notes = append(notes, undefined("total", *loc.Total)...)
	}
	for _, n := range append(notes, pr.Warnings...) {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
}

// count writes an access count in full: the table's M = 128p reads better
// as 1024 than as 1Ki.
func count(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

func localityCells(ls map[int]superstep.Locality, i int) string {
	l, ok := ls[i]
	if !ok {
		return "\t\t\t"
	}
	cell := func(v float64, err error) string {
		if err != nil {
			return "—"
		}
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%s\t%s\t%s\t", units.FormatSeconds(l.Measured), cell(l.Loc, l.LocErr), cell(l.MG, l.MGErr))
}

func undefined(what string, l superstep.Locality) []string {
	var out []string
	for _, err := range []error{l.LocErr, l.MGErr} {
		if err != nil {
			out = append(out, what+": "+err.Error())
		}
	}
	return out
}

type jsonTerm struct {
	Coefficient string  `json:"coefficient"`
	Feature     string  `json:"feature"`
	Coef        float64 `json:"coef_us"`
	Value       float64 `json:"value"`
	Seconds     float64 `json:"seconds"`
}

type jsonLocality struct {
	Measured float64  `json:"measured_s"`
	Loc      *float64 `json:"loc"`
	LocError string   `json:"loc_error,omitempty"`
	MG       *float64 `json:"mg"`
	MGError  string   `json:"mg_error,omitempty"`
}

type jsonStep struct {
	Number    int           `json:"number"`
	Name      string        `json:"name"`
	Formula   string        `json:"formula"`
	Runs      int           `json:"runs"`
	Hr        float64       `json:"h_r"`
	Hw        float64       `json:"h_w"`
	H         float64       `json:"h"`
	M         float64       `json:"M"`
	Hrc       float64       `json:"h_rc"`
	Hrm       float64       `json:"h_rm"`
	Hwc       float64       `json:"h_wc"`
	Hwm       float64       `json:"h_wm"`
	Region    string        `json:"region"`
	Good      float64       `json:"good_s"`
	Bad       float64       `json:"bad_s"`
	GoodTerms []jsonTerm    `json:"good_terms"`
	BadTerms  []jsonTerm    `json:"bad_terms"`
	Measured  *jsonLocality `json:"measured,omitempty"`
}

type jsonSupersteps struct {
	Algorithm    string        `json:"algorithm"`
	Table        string        `json:"table"`
	N            int64         `json:"n"`
	P            int           `json:"p"`
	Coefficients string        `json:"coefficients"`
	Source       string        `json:"source"`
	CacheWords   float64       `json:"cache_words"`
	Steps        []jsonStep    `json:"steps"`
	Good         float64       `json:"good_s"`
	Bad          float64       `json:"bad_s"`
	Measured     *jsonLocality `json:"measured,omitempty"`
	TotalSummed  bool          `json:"measured_total_is_sum,omitempty"`
	Warnings     []string      `json:"warnings"`
}

func superstepsJSON(pr superstep.Prediction, loc superstep.Located) jsonSupersteps {
	terms := func(ts []superstep.Term) []jsonTerm {
		out := make([]jsonTerm, len(ts))
		for i, t := range ts {
			out[i] = jsonTerm{Coefficient: t.Coefficient, Feature: t.Column, Coef: t.Coef, Value: t.Value, Seconds: t.Micros * 1e-6}
		}
		return out
	}
	locality := func(l superstep.Locality) *jsonLocality {
		j := &jsonLocality{Measured: l.Measured}
		if l.LocErr != nil {
			j.LocError = l.LocErr.Error()
		} else {
			v := l.Loc
			j.Loc = &v
		}
		if l.MGErr != nil {
			j.MGError = l.MGErr.Error()
		} else {
			v := l.MG
			j.MG = &v
		}
		return j
	}
	out := jsonSupersteps{
		Algorithm: pr.Plan.Algorithm.ID, Table: pr.Plan.Algorithm.Table, N: pr.Plan.N, P: pr.Plan.P,
		Coefficients: pr.Set.Name, Source: pr.Set.Source, CacheWords: pr.Set.CacheWords,
		Good: pr.Good, Bad: pr.Bad, TotalSummed: loc.TotalSummed, Warnings: append([]string{}, pr.Warnings...),
	}
	for i, s := range pr.Steps {
		x := s.Interval.Features
		js := jsonStep{
			Number: s.Step.Number, Name: s.Step.Name, Formula: s.Step.Formula, Runs: s.Step.Repeat,
			Hr: x.Hr, Hw: x.Hw, H: x.H, M: x.M, Hrc: x.Hrc, Hrm: x.Hrm, Hwc: x.Hwc, Hwm: x.Hwm,
			Region: s.Interval.Region.String(), Good: s.Interval.Good, Bad: s.Interval.Bad,
			GoodTerms: terms(s.Interval.GoodTerms), BadTerms: terms(s.Interval.BadTerms),
		}
		if l, ok := loc.Steps[i]; ok {
			js.Measured = locality(l)
		}
		out.Steps = append(out.Steps, js)
	}
	if loc.Total != nil {
		out.Measured = locality(*loc.Total)
	}
	return out
}
