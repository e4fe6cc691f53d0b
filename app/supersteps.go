package app

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/superstep"
	"memwall/engine/units"
)

// superstepsPage bounds the communication time of a sorting program's
// shared-memory supersteps with the superstep paper's Good and Bad cost functions: the
// user picks radix, sample or column sort, n and p, and a coefficient set
// (the paper's SGI Power Challenge for p = 2, 4, 8, 12, or typed in), and
// sees each superstep's h_r, h_w, M and its interval [t_g, t_b], the total,
// and a chart of the intervals; measured times give Loc and M/G. Every
// input is in the URL fragment.
type superstepsPage struct {
	app.Compo

	form     formText
	errs     map[string]string
	linkMsgs []string
	out      ssOutcome
	stale    bool

	share, shareErr, notice string
	// fileMsg reports the last coefficient or suites file loaded, or why
	// it was not.
	fileMsg, fileErr string
	// fits are the cost functions fitted to a suites file (fitsName), kept
	// for their table; nil when none was loaded.
	fits     *superstep.Fits
	fitsName string
}

// Coefficient-set choices. oldCoefPublished is what links of earlier
// versions call the published set; they still open it.
const (
	coefPublished    = "published"
	coefTyped        = "typed"
	oldCoefPublished = "seed"
)

// maxMeasuredSteps is the most supersteps a sort has (sample and column
// sort: 5).
const maxMeasuredSteps = 5

// ssKeys are the link keys, in the order links write them: the sort, the
// coefficients (typed ones only when chosen) and the measured times (tm:
// one per superstep, comma-separated, "-" for none; tmt: the whole sort).
var ssKeys = []string{"algo", "n", "p", "b", "r", "s", "coef", "good", "good1", "bad", "C", "tm", "tmt"}

// ssDefaults: radix sort of a million integers on 8 processors with the
// superstep paper's coefficients, the sizes of its section 5.2.
func ssDefaults() map[string]string {
	d := map[string]string{"algo": "radix", "n": "1000000", "p": "8", "b": "32", "r": "6", "s": "100", "coef": coefPublished, "tmt": ""}
	for k, v := range typedDefaults(8) {
		d[k] = v
	}
	for i := 1; i <= maxMeasuredSteps; i++ {
		d[tmKey(i)] = ""
	}
	return d
}

// typedDefaults fills the typed coefficients with the paper's for p, or for
// p = 8 when the paper has none for p.
func typedDefaults(p int) map[string]string {
	set, err := superstep.SGIPowerChallenge(p)
	if err != nil {
		set, _ = superstep.SGIPowerChallenge(8)
	}
	return map[string]string{
		"good":  superstep.FormatCoefficients(superstep.HrHwMc, set.GoodR0),
		"good1": superstep.FormatCoefficients(superstep.HrHwMc, *set.GoodR1),
		"bad":   superstep.FormatCoefficients(superstep.HrHwM, set.Bad),
		"C":     "2^19",
	}
}

func tmKey(i int) string { return "tm" + strconv.Itoa(i) }

// ssOutcome is what the page shows: the last inputs that all read.
type ssOutcome struct {
	ok      bool
	pred    superstep.Prediction
	located superstep.Located
	chart   string
}

func (p *superstepsPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *superstepsPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
}

func (p *superstepsPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Supersteps", "Bound the communication time of a sort's shared-memory supersteps between the Good and Bad cost functions of the superstep paper, and measure its locality with Loc and M/G.")
	p.load(ctx, fragment)
}

// load reads a fragment over the defaults; tests call it without a page.
func (p *superstepsPage) load(ctx app.Context, fragment string) {
	p.form.prefix = "ss-"
	vals, msgs := parseLink(fragment, ssKeys)
	p.linkMsgs = msgs
	text := ssDefaults()
	_, g0 := vals["good"]
	_, g1 := vals["good1"]
	_, gb := vals["bad"]
	if g0 || g1 || gb {
		// A link with typed coefficients carries all it has: an absent
		// good1 means one Good function for every h.
		text["good"], text["good1"], text["bad"] = "", "", ""
	} else if pv, err := strconv.Atoi(strings.TrimSpace(vals["p"])); err == nil {
		for k, v := range typedDefaults(pv) {
			text[k] = v
		}
	}
	for k, v := range vals {
		if k == "tm" {
			parts := strings.Split(v, ",")
			if len(parts) > maxMeasuredSteps {
				p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("tm: %d measured times; a sort has at most %d supersteps, so the rest were ignored", len(parts), maxMeasuredSteps))
				parts = parts[:maxMeasuredSteps]
			}
			for i, t := range parts {
				if t = strings.TrimSpace(t); t != "-" {
					text[tmKey(i+1)] = t
				}
			}
			continue
		}
		if k == "coef" && v == oldCoefPublished {
			v = coefPublished
		}
		text[k] = v
	}
	p.form.set(ctx, text)
	p.notice = ""
	p.recompute()
	for k, e := range p.errs {
		key := k
		if strings.HasPrefix(k, "tm") && k != "tmt" {
			key = "tm"
		}
		if _, fromLink := vals[key]; fromLink {
			p.linkMsgs = append(p.linkMsgs, e)
		}
	}
	slices.Sort(p.linkMsgs)
}

// ssInputs are the parsed inputs.
type ssInputs struct {
	algo   string
	n      int64
	p      int
	params superstep.Params
	set    superstep.Set
	steps  map[int]float64
	total  *float64
}

// planFields names the page's field for each engine message about a plan's
// inputs.
var planFields = []struct{ prefix, key, label string }{
	{"algorithm", "algo", "Algorithm"},
	{"n = ", "n", "Elements n"},
	{"p = ", "p", "Processors p"},
	{"key bits", "b", "Key bits b"},
	{"radix bits", "r", "Radix bits r"},
	{"oversampling", "s", "Sample per processor"},
}

// parse reads every field, marking each one that does not read.
func (p *superstepsPage) parse() (ssInputs, bool) {
	p.errs = map[string]string{}
	t := p.form.text
	var in ssInputs
	in.algo = strings.TrimSpace(t["algo"])
	known := false
	for _, a := range superstep.Algorithms {
		known = known || a.ID == in.algo
	}
	if !known {
		p.errs["algo"] = "Algorithm: choose radix, sample or column sort"
	}
	count := func(key, label string) int64 {
		v, err := units.ParseCount(strings.TrimSpace(t[key]))
		if err != nil {
			p.errs[key] = fmt.Sprintf("%s: %v", label, err)
		}
		return v
	}
	small := func(key, label string, lo, hi int64) int {
		v := count(key, label)
		if _, bad := p.errs[key]; !bad && (v < lo || v > hi) {
			p.errs[key] = fmt.Sprintf("%s: %d is outside %d to %d", label, v, lo, hi)
		}
		return int(v)
	}
	in.n = count("n", "Elements n")
	in.p = small("p", "Processors p", 1, superstep.MaxProcessors)
	switch in.algo {
	case "radix":
		in.params.KeyBits = small("b", "Key bits b", 1, 64)
		in.params.RadixBits = small("r", "Radix bits r", 1, 24)
	case "sample":
		in.params.Oversample = small("s", "Sample per processor", 1, 1<<20)
	}

	if t["coef"] == coefTyped {
		in.set = superstep.Set{Name: "typed in", Source: "typed in", P: in.p, CacheWords: superstep.PublishedCacheWords}
		coef := func(key, label string, f superstep.Function) superstep.Coefficients {
			c, err := superstep.ParseCoefficients(f, t[key])
			if err != nil {
				p.errs[key] = label + ": " + err.Error()
			}
			return c
		}
		split := strings.TrimSpace(t["good1"]) != ""
		in.set.GoodR0 = coef("good", map[bool]string{false: "Good, HrHwM-c", true: "Good for h <= C (R0)"}[split], superstep.HrHwMc)
		if split {
			r1 := coef("good1", "Good for h > C (R1)", superstep.HrHwMc)
			in.set.GoodR1 = &r1
		}
		in.set.Bad = coef("bad", "Bad, HrHwM", superstep.HrHwM)
		if c := count("C", "Cache size C (words)"); p.errs["C"] == "" {
			if c < 0 || c > superstep.MaxAccesses {
				p.errs["C"] = "Cache size C (words): between 0 and 2^50"
			}
			in.set.CacheWords = float64(c)
		}
	} else if p.errs["p"] == "" {
		set, err := superstep.SGIPowerChallenge(in.p)
		if err != nil {
			p.errs["p"] = "Processors p: the superstep paper's SGI Power Challenge has coefficients for p = 2, 4, 8 and 12; choose one of them or type coefficients in"
		}
		in.set = set
	}

	in.steps = map[int]float64{}
	duration := func(key, label string) (float64, bool) {
		s := strings.TrimSpace(t[key])
		if s == "" || s == "-" {
			return 0, false
		}
		v, err := units.ParseDuration(s)
		if err == nil && v < 0 {
			err = fmt.Errorf("%s is negative; a time >= 0 is needed", s)
		}
		if err != nil {
			p.errs[key] = label + ": " + err.Error()
			return 0, false
		}
		return v, true
	}
	for i := 1; i <= maxMeasuredSteps; i++ {
		if v, ok := duration(tmKey(i), fmt.Sprintf("Measured time of superstep %d", i)); ok {
			in.steps[i-1] = v
		}
	}
	if v, ok := duration("tmt", "Measured time of the whole sort"); ok {
		in.total = &v
	}
	return in, len(p.errs) == 0
}

func (p *superstepsPage) recompute() {
	in, ok := p.parse()
	p.stale = !ok
	if !ok {
		return
	}
	plan, err := superstep.NewPlan(in.algo, in.n, in.p, in.params)
	if err != nil {
		p.planErr(err)
		return
	}
	// Times typed for supersteps the sort does not have (radix sort has
	// four) are not shown and not used.
	for i := range in.steps {
		if i >= len(plan.Steps) {
			delete(in.steps, i)
		}
	}
	pred, err := in.set.Predict(plan)
	if err == nil {
		var loc superstep.Located
		if loc, err = pred.Locate(in.steps, in.total); err == nil {
			p.out = ssOutcome{ok: true, pred: pred, located: loc, chart: intervalOption(pred, loc)}
			return
		}
	}
	// Typed coefficients can fail here only through their values.
	p.errs["coef"] = "Coefficients: " + err.Error()
	p.stale = true
}

func (p *superstepsPage) planErr(err error) {
	p.stale = true
	msg := err.Error()
	for _, f := range planFields {
		if strings.HasPrefix(msg, f.prefix) {
			p.errs[f.key] = f.label + ": " + msg
			return
		}
	}
	p.errs["n"] = msg
}

func (p *superstepsPage) fragment() string {
	t := p.form.text
	algo := strings.TrimSpace(t["algo"])
	var pairs [][2]string
	for _, k := range ssKeys {
		v := t[k]
		switch k {
		case "b", "r":
			if algo != "radix" {
				continue
			}
		case "s":
			if algo != "sample" {
				continue
			}
		case "good", "good1", "bad", "C":
			if t["coef"] != coefTyped {
				continue
			}
		case "tm":
			var parts []string
			steps := maxMeasuredSteps
			for _, a := range superstep.Algorithms {
				if a.ID == algo {
					steps = a.Supersteps
				}
			}
			for i := 1; i <= steps; i++ {
				s := strings.TrimSpace(t[tmKey(i)])
				if s == "" {
					s = "-"
				}
				parts = append(parts, s)
			}
			for len(parts) > 0 && parts[len(parts)-1] == "-" {
				parts = parts[:len(parts)-1]
			}
			v = strings.Join(parts, ",")
		}
		pairs = append(pairs, [2]string{k, v})
	}
	return linkFragment(pairs)
}

func (p *superstepsPage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *superstepsPage) shareLink(ctx app.Context) *url.URL {
	u, msg := shareURL(ctx, p.fragment(), nil)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *superstepsPage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		p.notice = ""
		p.recompute()
		p.writeURL(ctx)
	}
}

func (p *superstepsPage) onSelect(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		v := inputValue(ctx)
		vals := map[string]string{key: v}
		// Typing coefficients starts from the paper's for the current p.
		if key == "coef" && v == coefTyped {
			pv, _ := strconv.Atoi(strings.TrimSpace(p.form.text["p"]))
			for k, s := range typedDefaults(pv) {
				vals[k] = s
			}
		}
		// A sort with fewer supersteps drops the times of the others.
		if key == "algo" {
			for _, a := range superstep.Algorithms {
				for i := a.Supersteps + 1; a.ID == v && i <= maxMeasuredSteps; i++ {
					vals[tmKey(i)] = ""
				}
			}
		}
		p.form.set(ctx, vals)
		p.recompute()
		p.writeURL(ctx)
	}
}

func (p *superstepsPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "ss-link")
}

// onCoefFile loads a coefficient file (memwall superstep-fit --coef-out, or
// any file superstep.ReadSet reads) into the typed coefficients, with its
// processor count, so that the interval is that machine's.
func (p *superstepsPage) onCoefFile(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.fileMsg, p.fileErr = "", ""
		var set superstep.Set
		if err == nil {
			set, err = superstep.ReadSet(bytes.NewReader(data))
		}
		if err != nil {
			p.fileErr = fmt.Sprintf("%s: %v", name, err)
			return
		}
		p.useSet(ctx, set)
		p.fileMsg = fmt.Sprintf("Loaded %s: coefficients for p = %d, C = %g words.", name, set.P, set.CacheWords)
		p.recompute()
		p.writeURL(ctx)
	})
}

// useSet puts a coefficient set into the typed coefficients, with its
// processor count and C.
func (p *superstepsPage) useSet(ctx app.Context, set superstep.Set) {
	vals := map[string]string{
		"coef":  coefTyped,
		"p":     strconv.Itoa(set.P),
		"good":  superstep.FieldCoefficients(superstep.HrHwMc, set.GoodR0),
		"good1": "",
		"bad":   superstep.FieldCoefficients(superstep.HrHwM, set.Bad),
		"C":     strconv.FormatFloat(set.CacheWords, 'f', -1, 64),
	}
	if set.GoodR1 != nil {
		vals["good1"] = superstep.FieldCoefficients(superstep.HrHwMc, *set.GoodR1)
	}
	p.form.set(ctx, vals)
}

// onSuitesFile fits the cost functions to supersteps measured by memwall
// superstep-suites (a CSV or JSON table), as the superstep paper fits them (Good on
// Suite 1, Bad on Suite 2, each judged on the other suites), shows the
// errors like its Tables 5–8, and uses HrHwM-c and HrHwM for the interval:
// for the page's p when the file has it, else for the file's first p.
func (p *superstepsPage) onSuitesFile(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.fileMsg, p.fileErr, p.fits = "", "", nil
		fail := func(err error) { p.fileErr = fmt.Sprintf("%s: %v", name, err) }
		if err != nil {
			fail(err)
			return
		}
		tbl, _, err := dataset.Read(bytes.NewReader(data), dataset.Options{})
		if err != nil {
			fail(err)
			return
		}
		meas, err := superstep.ReadMeasured(tbl)
		if err != nil {
			fail(err)
			return
		}
		fits, err := superstep.FitMeasured(meas, fit.Absolute)
		if err != nil {
			fail(err)
			return
		}
		p.fits, p.fitsName = &fits, name
		pv, _ := strconv.Atoi(strings.TrimSpace(p.form.text["p"]))
		if !slices.Contains(meas.Ps, pv) {
			pv = meas.Ps[0]
		}
		set, err := superstep.SetFromFits(fits.Good, fits.Bad, pv, meas.CacheWords, name)
		if err != nil {
			p.fileErr = fmt.Sprintf("%s: fitted, but no interval for p = %d: %v", name, pv, err)
			return
		}
		p.useSet(ctx, set)
		p.fileMsg = fmt.Sprintf("Fitted %s: %d good and %d bad supersteps; the interval uses HrHwM-c and HrHwM for p = %d, C = %g words.",
			name, len(meas.Good), len(meas.Bad), pv, meas.CacheWords)
		p.recompute()
		p.writeURL(ctx)
	})
}
