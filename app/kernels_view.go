package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/estimate"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

func (p *kernelsPage) Render() app.UI {
	k, _ := mbram.Lookup(p.s.Kernel)
	return shell("/",
		app.H1().Text("Kernels"),
		app.P().Class("lead").Text(p.lead()),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			app.Section().Class("panel inputs").Aria("label", "Inputs").Body(
				app.H2().Text("Machine"),
				selectField("machine", "Machine", menuValue(p.s.Machine), p.lib.options(p.linkMachine, "From a link or file"), p.onMachine),
				machineSummary(p.s.Machine),
				levelsView("machine-levels", p.s.Machine),
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

// lead says which model predicts: the paper's for its six numbers, the
// hierarchy model for a machine that gives its cache levels.
func (p *kernelsPage) lead() string {
	if estimate.Choose(estimate.Auto, p.s.Machine) == estimate.Hier {
		return "How long will it take? Pick a machine and a kernel. This machine gives its cache levels, so the hierarchy model estimates the time level by level; the MBRAM model (Cooperman, Ma and Nguyen), made for one cache, is shown beside it."
	}
	return "How long will it take? Pick a machine and a kernel; the MBRAM model (Cooperman, Ma and Nguyen) predicts the time from memory bandwidths, the cache and the branch-misprediction penalty."
}

func (p *kernelsPage) renderResult() app.UI {
	if p.resErr != "" {
		return app.Section().ID("result").Class("panel result").Aria("live", "polite").Body(
			app.H2().Text("Prediction"),
			app.P().Class("error").Text(p.resErr),
		)
	}
	r := p.est
	b := r.Breakdown
	return app.Section().ID("result").Class("panel result").Aria("live", "polite").Aria("label", "Prediction").Body(
		app.H2().Text("Prediction"),
		app.P().ID("model-name").Class("model-name").Text(r.Model.Title()),
		app.P().Class("total").Body(
			app.Span().ID("total").DataSet("seconds", secondsAttr(b.Seconds)).Text(units.FormatSeconds(b.Seconds)),
			boundWords(r.Prediction),
		),
		app.If(r.Model == estimate.Hier && r.Uncertainty > 0,
			app.P().ID("uncertainty").Class("note").Text(fmt.Sprintf("± %.1f%% from the calibration's spreads: how far they move this prediction, each parameter by its own, added in quadrature", 100*r.Uncertainty)),
		),
		p.renderOther(),
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
		app.P().ID("model-note").Class("note").Text(modelNote(r.Model)),
	)
}

// modelNote says under the breakdown what the model charges and leaves out.
func modelNote(m estimate.Model) string {
	if m == estimate.Hier {
		return "An estimate, not a bound: the hierarchy model charges the lines each cache level fills and writes back at that level's bandwidths (β1 for a line that continues a stream, β2 for one from a random place), a dependent miss the latency step below the level, the core's work at its compute rate and each mispredicted branch m. The terms add up; only on a machine that gives its first level's fill time and κ does that level's term overlap the core's work: it is what the fills add to it, max(W, F) + κ·min(W, F) − W."
	}
	return "A lower bound by construction: the model charges nothing for hits in the smaller caches, TLB misses or instructions (the MBRAM paper, section II). Measured times in the MBRAM paper are 1.0 to 1.8 times the prediction (more where a program is partly CPU-bound)."
}

// boundWords says after a total what kind of number it is: "at least"
// only where the paper's bound holds.
func boundWords(pr estimate.Prediction) app.UI {
	switch {
	case pr.Bound:
		return app.Span().Class("bound").Text(" at least")
	case pr.Model == estimate.Hier:
		return app.Span().ID("estimate-kind").Class("bound").Text(" an estimate")
	case pr.Breakdown.NotBound != "":
		return app.Span().ID("not-bound").Class("bound warn").Text(" an estimate, not a bound: the formula's regime does not hold here (see the first warning)")
	}
	return app.Span().ID("not-bound").Class("bound warn").Text(" not a bound on a machine with several cache levels")
}

// renderOther shows the other model's total beside the main one, on a
// machine that gives its cache levels: there the main number is the
// hierarchy model's, and the paper's is the one people know. On the
// paper's machines of six numbers the hierarchy model has no compute rate
// and no levels of its own, re-derives the paper's forms for one cache,
// and can read a little below the paper's bound: an "estimate" under a
// "lower bound" would only confuse, so it is left out there.
func (p *kernelsPage) renderOther() app.UI {
	o := p.est.Other
	if o == nil || p.est.Model != estimate.Hier {
		return nil
	}
	return app.P().ID("other").Class("other-model").Body(
		app.Span().ID("other-model-name").Class("other-name").Text(o.Model.Title()+": "),
		app.Span().ID("other-total").DataSet("seconds", secondsAttr(o.Breakdown.Seconds)).Text(units.FormatSeconds(o.Breakdown.Seconds)),
		app.If(o.Bound, app.Span().Class("bound").Text(" at least")),
		app.Small().ID("other-note").Class("other-note").Text(o.Note),
	)
}

// secondsAttr is a time for a data-seconds attribute: every digit, for
// the browser tests to compare.
func secondsAttr(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

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
			linkRow("share-link", "copy-link", "Link to this calculation", p.share, p.onCopy),
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
