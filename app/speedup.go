package app

import (
	"fmt"
	"math"
	"net/url"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/link"
	"memwall/engine/speedup"
	"memwall/engine/units"
	"memwall/presets"
)

// speedupPage fits a functional form T(N, P) to measured running times and
// predicts speedup from it, as Chittor's thesis (Chittor 1994) does: terms from the
// algorithm's analysis (eqs. 6, 9, 11) or typed in, coefficients fitted on a
// characterisation region and judged on the prediction region, and the
// speedup curve with its roll-off point beside Amdahl's, Gustafson's and
// Sun and Ni's laws. The model and region are in the URL fragment; imported
// data is not.
type speedupPage struct {
	app.Compo

	data     string         // built-in data set id, or fileData
	tbl      *dataset.Table // the data in use
	file     *dataset.Table // the imported file, kept while a built-in set is shown
	fileName string
	// imp is the last import: an error, or a file with bad rows held
	// until the user agrees to use its good rows (the data in use stays
	// as it was).
	imp fileImport

	yCol, nCol, pCol string
	text             map[string]string // terms, region, n, work as typed
	// shown is what the page last wrote into those inputs. The inputs
	// render it, not text, so go-app never rewrites a field while the user
	// types in it (a fast typist would lose characters to a render of an
	// older text); setText changes both.
	shown     map[string]string
	weighting fit.Weighting
	model     string // ready model (eqs. 13–18) whose terms and region were taken
	errs      map[string]string
	termsAt   int // byte offset of a term syntax error, or -1
	linkMsgs  []string

	spec  speedupInputs // the last inputs that all parsed
	out   speedupOutcome
	stale bool
	seq   int // debounce counter for large data

	searching    bool
	search       *fit.SearchResult
	searchErr    string
	searchMillis float64
	// the running search: its progress and its job
	searchDone, searchTotal int
	searchJob               job

	share, shareErr, notice string
}

// speedupInputs are the parsed inputs of one fit.
type speedupInputs struct {
	terms []fit.Term
	cond  fit.Cond
	n     float64
	work  fit.Term
	// pFrom and pTo bound the Ps of the speedup chart.
	pFrom, pTo float64
}

const defaultWork = speedup.DefaultWork

// bigData is the row count above which fitting waits for typing to pause:
// a fit of 10 000 rows takes tens of milliseconds, too long per keystroke.
const bigData = 2000

func (p *speedupPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *speedupPage) OnNav(ctx app.Context) {
	p.init(ctx, ctx.Page().URL().EscapedFragment())
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
}

// init reads the page state from a fragment over the defaults of the data
// set it names.
func (p *speedupPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Speedup", "Fit a functional form T(N, P) to measured parallel running times and predict speedup and its roll-off point, beside Amdahl, Gustafson and Sun–Ni (Chittor's thesis).")
	p.load(fragment)
}

// load is init without the page context, so tests can run it.
func (p *speedupPage) load(fragment string) {
	vals, msgs := parseLink(fragment, speedup.Form.Keys)
	p.linkMsgs = msgs
	p.imp.reset()
	p.notice = ""
	p.stopSearch()
	p.search, p.searchErr = nil, ""

	id, ok := vals["data"]
	switch {
	case !ok:
		id = table6
	case id == fileData && p.file != nil:
	case id == fileData:
		p.linkMsgs = append(p.linkMsgs, "data: this link was made with an imported file, which links do not carry; Table 6 is shown with the link's terms and region until you import the file again")
		id = table6
	default:
		// An id of an earlier version names the same set.
		id = presets.CurrentID(id)
		if _, err := presets.Dataset(id); err != nil {
			p.linkMsgs = append(p.linkMsgs, "data: "+err.Error())
			id = table6
		} else if !speedupDataset(id) {
			p.linkMsgs = append(p.linkMsgs, "data: "+quoteShort(id)+" has no column N or P to draw speedup against; Table 6 is shown")
			id = table6
		}
	}
	p.setData(id)

	if y, ok := vals["y"]; ok {
		if hasColumn(p.tbl, y) {
			p.yCol = y
		} else {
			p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("y: the data set has no numeric column %s; %s was used", quoteShort(y), p.yCol))
		}
	}
	for _, k := range []string{"terms", "region", "n", "pfrom", "pto", "work"} {
		if v, ok := vals[k]; ok {
			p.text[k] = v
		}
	}
	if _, ok := vals["pto"]; !ok {
		p.text["pto"] = defaultPTo(p.frame(), p.text["n"])
	}
	p.model = ""
	if id, ok := vals["model"]; ok {
		if m, found := presets.FittedModelByID(id); found {
			p.model = m.ID
		} else {
			p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("model: no published model %s (known: chittor-eq13 … chittor-eq18)", quoteShort(id)))
		}
	}
	p.weighting = fit.Auto
	if w, ok := vals["w"]; ok {
		if wt, err := fit.ParseWeighting(w); err == nil {
			p.weighting = wt
		} else {
			p.linkMsgs = append(p.linkMsgs, "w: "+err.Error())
		}
	}
	p.showText()
	p.spec = speedupInputs{}
	p.out = speedupOutcome{}
	if !p.applyText() {
		p.linkMsgs = append(p.linkMsgs, "some fields of the link could not be read; they are marked below")
	}
	p.recompute()
}

// showText makes the inputs show the texts.
func (p *speedupPage) showText() {
	for k, v := range p.text {
		p.setText(k, v)
	}
}

// setText changes a field's text from the page (a preset, a search
// result), not from typing in it.
func (p *speedupPage) setText(key, v string) {
	p.text[key] = v
	if p.shown == nil {
		p.shown = map[string]string{}
	}
	p.shown[key] = v
	if app.IsClient {
		// go-app writes the input only when the rendered value changes;
		// the user may have typed since the last one.
		if el := app.Window().GetElementByID(key); el.Truthy() {
			el.Set("value", v)
		}
	}
}

// setData switches to a data set and takes its defaults.
func (p *speedupPage) setData(id string) {
	p.data = id
	if id == fileData {
		p.tbl = p.file
	} else {
		t, err := presets.Dataset(id)
		if err != nil {
			t, _ = presets.Dataset(table6)
			p.data = table6
		}
		p.tbl = t
	}
	d := defaultsFor(p.data, p.tbl)
	p.yCol = d.Y
	p.nCol, p.pCol = speedup.Columns(p.tbl, p.yCol)
	if d.N == "" && p.nCol != "" {
		if ns, ok := p.tbl.Column(p.nCol); ok && len(ns) > 0 {
			d.N = units.FormatCount(int64(maxOf(ns)))
		}
	}
	if d.N == "" {
		d.N = "2^13"
	}
	p.text = map[string]string{"terms": d.Terms, "region": d.Region, "n": d.N, "work": defaultWork,
		"pfrom": "2", "pto": defaultPTo(frameFor(p.tbl, p.nCol, p.pCol), d.N)}
	p.showText()
	p.model = ""
	p.errs = map[string]string{}
	p.termsAt = -1
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		if finite(x) && x > m {
			m = x
		}
	}
	return m
}

// applyText parses every field through the model's scenario. It changes
// the inputs only when all of them read, and marks each field that does not.
func (p *speedupPage) applyText() bool {
	in := p.inputs()
	if !p.curvesPossible() {
		// Without N and P columns the chart's fields are not read.
		delete(in, "n")
	}
	frame := p.frame()
	if !p.curvesPossible() {
		frame = fit.Frame{}
	}
	sc, es := speedup.ParseScenario(in, frame)
	p.errs = map[string]string{}
	for _, e := range es {
		p.errs[e.Field] = e.Msg
	}
	p.termsAt = sc.TermsAt
	if len(p.errs) > 0 {
		return false
	}
	p.spec = speedupInputs{terms: sc.Terms, cond: sc.Region, n: sc.N, work: sc.Work, pFrom: sc.PFrom, pTo: sc.PTo}
	return true
}

// inputs are the page's state as the model's inputs.
func (p *speedupPage) inputs() link.Inputs {
	return link.Inputs{"data": p.data, "y": p.yCol, "terms": p.text["terms"], "region": p.text["region"],
		"w": p.weighting.String(), "n": p.text["n"], "pfrom": p.text["pfrom"], "pto": p.text["pto"],
		"model": p.model, "work": p.text["work"]}
}

// curvesPossible reports whether the data can give speedup curves: it has
// problem-size and processor columns and measures times, not speedups.
func (p *speedupPage) curvesPossible() bool {
	return p.nCol != "" && p.pCol != "" && !defaultsFor(p.data, p.tbl).Speedups
}

func (p *speedupPage) recompute() {
	if len(p.spec.terms) == 0 || p.tbl == nil {
		p.stale = len(p.errs) > 0
		return
	}
	p.out = computeSpeedup(p)
	p.stale = false
}

// update is what every edit ends with: new results and a new link. With
// large data the fit waits until typing pauses.
func (p *speedupPage) update(ctx app.Context) {
	p.notice = ""
	ok := p.applyText()
	if !ok {
		p.stale = true
		p.writeURL(ctx)
		return
	}
	p.writeURL(ctx)
	if p.tbl == nil || p.tbl.Len() <= bigData {
		p.recompute()
		return
	}
	p.seq++
	seq := p.seq
	p.stale = true
	ctx.After(250*time.Millisecond, func(ctx app.Context) {
		if seq == p.seq {
			p.recompute()
		}
	})
}

func (p *speedupPage) fragment() string {
	pairs := [][2]string{{"data", p.data}}
	if p.yCol != defaultsFor(p.data, p.tbl).Y {
		pairs = append(pairs, [2]string{"y", p.yCol})
	}
	pairs = append(pairs,
		[2]string{"terms", p.text["terms"]},
		[2]string{"region", p.text["region"]},
		[2]string{"w", p.weighting.String()},
	)
	if p.curvesPossible() {
		pairs = append(pairs, [2]string{"n", p.text["n"]}, [2]string{"pfrom", p.text["pfrom"]}, [2]string{"pto", p.text["pto"]})
		if p.text["work"] != defaultWork {
			pairs = append(pairs, [2]string{"work", p.text["work"]})
		}
	}
	if p.model != "" {
		pairs = append(pairs, [2]string{"model", p.model})
	}
	return linkFragment(pairs)
}

func (p *speedupPage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *speedupPage) shareLink(ctx app.Context) *url.URL {
	u, err := pageLink(ctx.Page().URL(), p.fragment())
	if err != nil {
		p.share, p.shareErr = "", err.Error()
		return nil
	}
	p.share, p.shareErr = u.String(), ""
	if p.data == fileData {
		p.shareErr = "The data came from a file, which links do not carry: the link holds the terms, region, weighting and N, and opens with Table 6 until the file is imported again."
	}
	return u
}

func (p *speedupPage) frame() fit.Frame { return frameFor(p.tbl, p.nCol, p.pCol) }
