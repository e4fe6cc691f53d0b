package app

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/units"
	"memwall/presets"
)

// kernelsPage is the MBRAM calculator: a machine and a kernel of the MBRAM paper
// in, the predicted time and its breakdown out, with a sweep over N. Its
// whole state is the URL fragment (package scenario).
type kernelsPage struct {
	app.Compo

	lib library
	// linkMachine is a machine that came inline in the link and is not in
	// the library; the machine menu offers it until another is picked.
	linkMachine *machine.Machine

	s        scenario.Scenario // what the results show; always valid
	form     formText          // workload fields, by link key
	errs     map[string]string // field messages, by link key
	linkMsgs []string          // problems of the link the page opened with

	result   mbram.Breakdown
	resErr   string
	bars     string // breakdown chart option
	sweep    sweepResult
	share    string // the share link
	shareErr string
	notice   string
	linkGen  int // edits so far; a link write waits for the typing to settle
}

func (p *kernelsPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *kernelsPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
}

// init reads the scenario from a fragment over the default one.
func (p *kernelsPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Kernels", "Predict the running time of permutation products, matrix products and sorts from a machine's memory bandwidths, cache and branch penalty (MBRAM model).")
	p.lib = loadLibrary(ctx)
	s, probs := scenario.ParseFragment(fragment, scenario.Default(presets.Machine), presets.Machine)
	p.linkMsgs = p.linkMsgs[:0]
	for _, pr := range probs {
		p.linkMsgs = append(p.linkMsgs, pr.Error())
	}
	p.linkMachine = nil
	if s.Machine.ID == "" {
		if m, ok := p.lib.match(s.Machine); ok {
			s.Machine = m
		} else {
			m := s.Machine
			p.linkMachine = &m
		}
	}
	p.s = s
	p.errs = map[string]string{}
	p.resetText(ctx)
	p.recompute()
}

// resetText writes the scenario's workload into the fields.
func (p *kernelsPage) resetText(ctx app.Context) {
	vals := map[string]string{
		"n":    units.FormatCount(p.s.Params.N),
		"w":    strconv.FormatInt(p.s.Params.W, 10),
		"b":    strconv.FormatInt(p.s.Params.Buckets, 10),
		"from": "",
		"to":   "",
	}
	if p.s.SweepFrom > 0 {
		vals["from"] = units.FormatCount(p.s.SweepFrom)
	}
	if p.s.SweepTo > 0 {
		vals["to"] = units.FormatCount(p.s.SweepTo)
	}
	p.form.set(ctx, vals)
}

func (p *kernelsPage) recompute() {
	p.result, p.resErr = mbram.Breakdown{}, ""
	if b, err := p.s.Predict(); err != nil {
		p.resErr = err.Error()
	} else {
		p.result = b
	}
	p.bars = breakdownOption(p.result)
	p.sweep = sweepKernels(p.s)
}

// update is what every edit ends with: new results and a new link.
func (p *kernelsPage) update(ctx app.Context) {
	p.notice = ""
	p.recompute()
	p.writeURL(ctx)
}

// writeURL puts the scenario in the address bar without a history entry.
func (p *kernelsPage) writeURL(ctx app.Context) {
	u := p.shareLink(ctx)
	if u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *kernelsPage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.s.Fragment(presets.Machine)
	u, msg := shareURL(ctx, frag, err)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *kernelsPage) onMachine(ctx app.Context, e app.Event) {
	if m, ok := p.lib.chosen(inputValue(ctx), p.linkMachine); ok {
		p.s.Machine = m
	}
	p.update(ctx)
}

func (p *kernelsPage) onKernel(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	k, ok := mbram.Lookup(id)
	if !ok {
		return
	}
	if !sameAxis(id, p.s.Kernel) {
		// N means a matrix dimension for matmul and an element count
		// otherwise: take the kernel's default and the default sweep.
		p.s.Params.N = paramDefault(k, "n", p.s.Params.N)
		p.s.SweepFrom, p.s.SweepTo = 0, 0
	}
	if slices.Equal(p.s.Compare, scenario.DefaultCompare(p.s.Kernel)) || !sameAxis(id, p.s.Kernel) {
		// An untouched comparison follows the kernel (the other sorts, or
		// the other permutation product); one the user chose stays.
		p.s.Compare = scenario.DefaultCompare(id)
	}
	p.s.Kernel = id
	p.s.Compare = without(p.s.Compare, id)
	if err := k.Check(p.s.Params); err != nil {
		p.s.Params = mbram.DefaultParams(paramDefault(k, "n", p.s.Params.N))
	}
	p.errs = map[string]string{}
	p.resetText(ctx)
	p.update(ctx)
}

// onText keeps what the user typed and applies it when every field reads.
func (p *kernelsPage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		p.linkGen++
		if !p.applyText() {
			// A value on its way to a refused one ("2^7" of "2^70") was
			// never meant: the link keeps the values accepted before.
			return
		}
		p.notice = ""
		p.recompute()
		gen := p.linkGen
		ctx.After(linkSettle, func(ctx app.Context) {
			if gen == p.linkGen && len(p.errs) == 0 {
				p.writeURL(ctx)
			}
		})
	}
}

// linkSettle is how long the fields must rest before the address bar
// takes the new values: typing "2^70" passes through "2^7", which reads.
const linkSettle = 400 * time.Millisecond

// applyText parses every workload field; it changes the scenario only when
// all of them are good, and marks each bad one.
func (p *kernelsPage) applyText() bool {
	p.errs = map[string]string{}
	params := p.s.Params
	k, _ := mbram.Lookup(p.s.Kernel)
	count := func(key, what string, dst *int64, optional bool) {
		t := strings.TrimSpace(p.form.text[key])
		if t == "" && optional {
			*dst = 0
			return
		}
		v, err := scenario.ParseParam(key, t)
		if err != nil && key == "n" && errors.Is(err, units.ErrTooLarge) {
			// n's own limit, stated as the hint and the engine state it.
			p.errs[key] = fmt.Sprintf("%s must be a whole number %s; got %s", what, k.RangeN(), t)
			return
		}
		if err != nil {
			p.errs[key] = what + ": " + err.Error()
			return
		}
		*dst = v
	}
	count("n", paramMeaning(k, "n"), &params.N, false)
	count("w", "word size", &params.W, false)
	if hasParam(k, "b") {
		count("b", "buckets", &params.Buckets, false)
	}
	from, to := p.s.SweepFrom, p.s.SweepTo
	count("from", "sweep start", &from, true)
	count("to", "sweep end", &to, true)
	if len(p.errs) > 0 {
		return false
	}
	if err := k.Check(params); err != nil {
		var pe *mbram.ParamError
		if errors.As(err, &pe) {
			p.errs[pe.Field] = pe.Msg
		} else {
			p.errs["n"] = err.Error()
		}
		return false
	}
	lo, hi := sweepRange(p.s.Kernel, params.N, from, to)
	if lo >= hi {
		p.errs["to"] = fmt.Sprintf("the sweep must end above its start (%s)", units.FormatCount(lo))
		return false
	}
	p.s.Params, p.s.SweepFrom, p.s.SweepTo = params, from, to
	return true
}

func (p *kernelsPage) onCompare(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if ctx.JSSrc().Get("checked").Bool() {
			p.s.Compare = append(without(p.s.Compare, id), id)
		} else {
			p.s.Compare = without(p.s.Compare, id)
		}
		p.update(ctx)
	}
}

func (p *kernelsPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "share-link")
}

func (p *kernelsPage) onDownload(ctx app.Context, e app.Event) {
	download("memwall-scenario.json", "application/json", p.s.JSON())
}

// onOpenFile reads a scenario file written by "Download as a file": the
// way in for a calculation too large for a link.
func (p *kernelsPage) onOpenFile(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		if err == nil {
			var s scenario.Scenario
			if s, err = scenario.ParseJSON(data); err == nil {
				p.linkMachine = nil
				// A machine that is not exactly one of the library's (same
				// name and numbers) is shown as the file's own.
				if m, ok := p.lib.match(s.Machine); ok {
					s.Machine = m
				} else {
					m := s.Machine
					m.ID = ""
					s.Machine, p.linkMachine = m, &m
				}
				p.s, p.errs, p.linkMsgs = s, map[string]string{}, nil
				p.resetText(ctx)
				p.update(ctx)
				p.notice = "Opened " + name + "."
				return
			}
		}
		p.notice = name + ": " + err.Error()
	})
}

func (p *kernelsPage) onSaveLinkMachine(ctx app.Context, e app.Event) {
	if p.linkMachine == nil {
		return
	}
	m := p.lib.put(*p.linkMachine)
	if err := p.lib.save(ctx); err != nil {
		p.notice = err.Error()
		return
	}
	p.linkMachine = nil
	p.s.Machine = m
	p.notice = "Saved to your machines as " + m.Name + "."
}

func (p *kernelsPage) Render() app.UI {
	k, _ := mbram.Lookup(p.s.Kernel)
	return shell("/",
		app.H1().Text("Kernels"),
		app.P().Class("lead").Text("How long will it take? Pick a machine and a kernel; the MBRAM model (Cooperman, Ma and Nguyen) predicts the time from memory bandwidths, the cache and the branch-misprediction penalty."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			app.Section().Class("panel inputs").Aria("label", "Inputs").Body(
				app.H2().Text("Machine"),
				selectField("machine", "Machine", menuValue(p.s.Machine), p.lib.options(p.linkMachine, "From a link or file"), p.onMachine),
				machineSummary(p.s.Machine),
				app.If(p.linkMachine != nil && p.s.Machine.ID == "",
					app.Button().ID("save-link-machine").Text("Save this machine to my machines").OnClick(p.onSaveLinkMachine),
				),
				app.P().Body(app.A().Href(Href("/machines")).Text("Edit machines or add your own")),
				app.H2().Text("Workload"),
				selectField("kernel", "Kernel", p.s.Kernel, kernelOptions(), p.onKernel),
				app.P().Class("summary").Body(
					app.Text(k.Summary+". "),
					app.Code().Text(k.Formula),
					app.Text(" ("+k.Source+")"),
				),
				textField{ID: "n", Label: paramLabel(k, "n"), Value: p.form.shown["n"], Hint: "a whole number " + k.RangeN() + "; e.g. 8Mi, 2^23, 1e6", Err: p.errs["n"], OnInput: p.onText("n")}.UI(),
				textField{ID: "w", Label: "w, word size (bytes)", Value: p.form.shown["w"], Err: p.errs["w"], OnInput: p.onText("w"), Size: 6}.UI(),
				app.If(hasParam(k, "b"),
					textField{ID: "b", Label: "b, buckets per pass", Value: p.form.shown["b"], Err: p.errs["b"], OnInput: p.onText("b"), Size: 6}.UI(),
				),
			),
			p.renderResult(),
		),
		p.renderSweep(k),
		p.renderShare(),
	)
}

func (p *kernelsPage) renderResult() app.UI {
	if p.resErr != "" {
		return app.Section().ID("result").Class("panel result").Aria("live", "polite").Body(
			app.H2().Text("Prediction"),
			app.P().Class("error").Text(p.resErr),
		)
	}
	b := p.result
	return app.Section().ID("result").Class("panel result").Aria("live", "polite").Aria("label", "Prediction").Body(
		app.H2().Text("Prediction"),
		app.P().Class("total").Body(
			app.Span().ID("total").DataSet("seconds", strconv.FormatFloat(b.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(b.Seconds)),
			app.If(b.NotBound == "", app.Span().Class("bound").Text(" at least")).
				Else(app.Span().ID("not-bound").Class("bound warn").Text(" an estimate, not a bound: the formula's regime does not hold here (see the first warning)")),
		),
		app.If(len(p.errs) > 0, app.P().Class("stale").Text("Not updated: this is the prediction for n = "+units.FormatCount(p.s.Params.N)+", the last accepted value; the link holds it too. Fix the marked field.")),
		app.P().ID("regime").Class("regime").Text(b.Regime),
		app.If(len(b.Warnings) > 0,
			app.Ul().ID("warnings").Class("warnings").Body(
				app.Range(b.Warnings).Slice(func(i int) app.UI { return app.Li().Text(b.Warnings[i]) }),
			),
		),
		renderGlossary("warnings-glossary", glossaryFor(b.Warnings...)),
		&chart{ID: "breakdown-chart", Label: "Where the predicted time goes, by term", Summary: breakdownSummary(b), Option: p.bars, Height: 90 + 22*len(b.Terms)},
		app.Div().Class("table-wrap").Body(app.Table().ID("terms").Class("terms").Body(
			app.Caption().Text("Breakdown"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Term"),
				app.Th().Scope("col").Text("Time"),
				app.Th().Scope("col").Text("Share"),
				app.Th().Scope("col").Text("Formula"),
			)),
			app.TBody().Body(app.Range(b.Terms).Slice(func(i int) app.UI {
				t := b.Terms[i]
				share := "—"
				if b.Seconds > 0 {
					share = strconv.FormatFloat(100*t.Seconds/b.Seconds, 'f', 1, 64) + " %"
				}
				return app.Tr().Body(
					app.Th().Scope("row").Text(t.Name),
					app.Td().Class("num").Text(units.FormatSeconds(t.Seconds)),
					app.Td().Class("num").Text(share),
					app.Td().Body(app.Code().Text(t.Formula)),
				)
			})),
		)),
		app.P().Class("note").Text("A lower bound by construction: the model charges nothing for hits in the smaller caches, TLB misses or instructions (the MBRAM paper, section II). Measured times in the MBRAM paper are 1.0 to 1.8 times the prediction (more where a program is partly CPU-bound)."),
	)
}

func (p *kernelsPage) renderSweep(k mbram.Kernel) app.UI {
	var cands []mbram.Kernel
	for _, c := range mbram.Kernels() {
		if c.ID != p.s.Kernel && sameAxis(c.ID, p.s.Kernel) {
			cands = append(cands, c)
		}
	}
	return app.Section().ID("sweep").Class("panel").Aria("label", "Sweep").Body(
		app.H2().Text("Sweep over "+strings.SplitN(paramLabel(k, "n"), ",", 2)[0]),
		app.Div().Class("row").Body(
			textField{ID: "from", Label: "from", Value: p.form.shown["from"], Hint: "default " + units.FormatCount(p.sweep.From), Err: p.errs["from"], OnInput: p.onText("from"), Size: 8}.UI(),
			textField{ID: "to", Label: "to", Value: p.form.shown["to"], Hint: "default " + units.FormatCount(p.sweep.To), Err: p.errs["to"], OnInput: p.onText("to"), Size: 8}.UI(),
		),
		app.If(len(cands) > 0,
			app.FieldSet().Class("compare").Body(
				app.Legend().Text("Compare with"),
				app.Range(cands).Slice(func(i int) app.UI {
					c := cands[i]
					id := "cmp-" + c.ID
					return app.Span().Class("check").Body(
						app.Input().Type("checkbox").ID(id).Checked(contains(p.s.Compare, c.ID)).OnChange(p.onCompare(c.ID)),
						app.Label().For(id).Text(c.Name),
					)
				}),
			),
		),
		&chart{ID: "sweep-chart", Label: "Predicted time against " + paramMeaning(k, "n") + ", log-log", Summary: p.sweep.Summary, Option: p.sweep.Option, Height: 380},
		p.renderSweepTime(),
	)
}

// renderSweepTime says how long the sweep took in this browser. The
// prerendered page leaves the time out: it would be the build machine's, and
// would make every build of the site differ.
func (p *kernelsPage) renderSweepTime() app.UI {
	el := app.P().ID("sweep-time").Class("note")
	if !app.IsClient {
		return el.Text(fmt.Sprintf("%d predictions.", p.sweep.Points))
	}
	return el.DataSet("ms", strconv.FormatFloat(p.sweep.Millis, 'f', 3, 64)).DataSet("points", strconv.Itoa(p.sweep.Points)).
		Text(fmt.Sprintf("%d predictions computed in your browser in %.2f ms.", p.sweep.Points, p.sweep.Millis))
}

func (p *kernelsPage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.If(p.shareErr == "",
			app.Div().Class("row").Body(
				app.Label().For("share-link").Class("visually-hidden").Text("Link to this calculation"),
				app.Input().ID("share-link").Type("text").ReadOnly(true).Value(p.share).Class("link"),
				app.Button().ID("copy-link").Text("Copy link").OnClick(p.onCopy),
			),
		).Else(
			app.P().Class("error").Text(p.shareErr),
		),
		app.Div().Class("row actions").Body(
			app.Button().ID("download-scenario").Text("Download as a file (JSON)").OnClick(p.onDownload),
			app.Label().Class("button").For("open-scenario").Text("Open a file…"),
			app.Input().ID("open-scenario").Type("file").Accept(".json,application/json").Class("visually-hidden").OnChange(p.onOpenFile),
		),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link holds the whole calculation (machine, kernel, sizes) after the #, so it opens with the same numbers anywhere, also offline."),
	)
}

// machineSummary shows the machine's parameters as the paper writes them.
func machineSummary(m machine.Machine) app.UI {
	row := func(term, def, title string) app.UI {
		// The meaning is written out, not left to a hover title: touch
		// screens have no hover.
		return app.Div().Body(app.Dt().Text(term), app.Dd().Body(app.Text(def), app.Small().Class("meaning").Text(title)))
	}
	return app.Div().Class("machine-summary").Body(
		app.If(menuLabel(m.Name) != m.Name, app.P().Class("machine-name").Text(m.Name)),
		app.Dl().Class("params").Body(
			row("β1", units.FormatBandwidth(m.Beta1), "sequential bandwidth"),
			row("β2", units.FormatBandwidth(m.Beta2), "random-access bandwidth"),
			row("μ1", strconv.Itoa(m.Mu1), "concurrent sequential streams"),
			row("C", units.FormatSize(m.C), "largest cache"),
			row("B", units.FormatSize(m.B), "cache line"),
			row("m", units.FormatSeconds(m.M), "branch-misprediction penalty"),
		),
		app.If(m.Source != "", app.P().Class("source").Text("Source: "+m.Source)),
	)
}

func kernelOptions() []option {
	var opts []option
	for _, k := range mbram.Kernels() {
		opts = append(opts, option{Value: k.ID, Label: k.Name, Group: familyName(k.Family)})
	}
	return opts
}

// nIsDimension reports whether n is a matrix dimension for kernel id, not
// an element count.
func nIsDimension(id string) bool {
	k, _ := mbram.Lookup(id)
	return k.NIsDimension()
}

// sameAxis reports whether two kernels' n mean the same thing, so they can
// share a sweep axis: a matrix dimension, or an element count.
func sameAxis(a, b string) bool { return nIsDimension(a) == nIsDimension(b) }

// familyName is the kernel menus' group for a family.
func familyName(f mbram.Family) string {
	switch f {
	case mbram.PermutationProduct:
		return "Permutation product"
	case mbram.MatrixProduct:
		return "Matrix product"
	}
	return "Sorting"
}

func hasParam(k mbram.Kernel, name string) bool {
	_, ok := k.Param(name)
	return ok
}

func paramDefault(k mbram.Kernel, name string, fallback int64) int64 {
	if p, ok := k.Param(name); ok {
		return p.Default
	}
	return fallback
}

func paramMeaning(k mbram.Kernel, name string) string {
	if p, ok := k.Param(name); ok {
		return p.Meaning
	}
	return name
}

func paramLabel(k mbram.Kernel, name string) string {
	return name + ", " + paramMeaning(k, name)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func without(list []string, s string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
