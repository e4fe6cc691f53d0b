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
	"memwall/engine/field"
	"memwall/engine/fit"
	"memwall/engine/link"
	"memwall/engine/superstep"
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

// Coefficient-set choices, and the most supersteps a sort has.
const (
	coefPublished    = superstep.CoefPublished
	coefTyped        = superstep.CoefTyped
	maxMeasuredSteps = superstep.MaxMeasuredSteps
)

// tmKey is the field of superstep i's measured time; the link's tm key
// holds them all.
func tmKey(i int) string { return superstep.MeasuredKey(i) }

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
	vals, es := link.Read(fragment, superstep.Form.Keys)
	p.linkMsgs = messages(es)
	text := superstep.Form.Fill(vals)
	if parts := strings.Split(text["tm"], ","); len(parts) > maxMeasuredSteps {
		p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("tm: %d measured times; a sort has at most %d supersteps, so the rest were ignored", len(parts), maxMeasuredSteps))
		text["tm"] = strings.Join(parts[:maxMeasuredSteps], ",")
	}
	text = formMeasured(text)
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

// formMeasured splits the tm key into one field per superstep.
func formMeasured(in link.Inputs) link.Inputs {
	out := in.Clone()
	delete(out, "tm")
	for i := 1; i <= maxMeasuredSteps; i++ {
		out[tmKey(i)] = ""
	}
	if tm := strings.TrimSpace(in["tm"]); tm != "" {
		for i, t := range strings.Split(tm, ",") {
			if t = strings.TrimSpace(t); t != "-" && i < maxMeasuredSteps {
				out[tmKey(i+1)] = t
			}
		}
	}
	return out
}

// inputs are the form's fields as the model's inputs: the measured times
// of the sort's supersteps joined into tm ("-" for none, trailing ones
// left out).
func (p *superstepsPage) inputs() link.Inputs {
	t := p.form.text
	in := link.Inputs{}
	for _, k := range superstep.Form.Keys {
		in[k] = t[k]
	}
	steps := maxMeasuredSteps
	for _, a := range superstep.Algorithms {
		if a.ID == strings.TrimSpace(t["algo"]) {
			steps = a.Supersteps
		}
	}
	var parts []string
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
	in["tm"] = strings.Join(parts, ",")
	return in
}

func (p *superstepsPage) recompute() {
	sc, es := superstep.ParseScenario(p.inputs())
	p.errs = map[string]string{}
	for _, e := range es {
		p.errs[e.Field] = e.Msg
	}
	p.stale = len(es) > 0
	if p.stale {
		return
	}
	pred, loc, err := sc.Evaluate()
	if err != nil {
		fe := field.From(err, "coef")[0]
		p.errs[fe.Field] = fe.Msg
		p.stale = true
		return
	}
	p.out = ssOutcome{ok: true, pred: pred, located: loc, chart: intervalOption(pred, loc)}
}

func (p *superstepsPage) fragment() (string, error) {
	return superstep.Form.Fragment(p.inputs())
}

func (p *superstepsPage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *superstepsPage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.fragment()
	u, msg := shareURL(ctx, frag, err)
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
			for k, s := range superstep.TypedDefaults(pv) {
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

// onDownload offers the inputs as a scenario file, which memwall
// supersteps reads with --scenario.
func (p *superstepsPage) onDownload(ctx app.Context, e app.Event) {
	download("memwall-supersteps.json", "application/json", superstep.Form.JSON(p.inputs()))
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
