package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/lang"
	"memwall/engine/units"
)

func (p *programPage) Render() app.UI {
	running := p.view != nil && p.view.state == stateRunning
	return shell("/program",
		app.H1().Text("Program"),
		app.P().Class("lead").Text("Write your algorithm in a small C-like pseudo-code; memwall runs it through the MBRAM model's simulator on the machine you choose (and, when the machine gives its cache levels, through the hierarchy simulator too) and shows where the time goes, line by line, at any size."),
		linkProblems(p.links),
		app.Div().Class("columns wide-inputs").Body(
			app.Section().Class("panel inputs").Aria("label", "Program").Body(
				selectField("example", "Example", p.example, exampleOptions("(your program)"), p.onExample),
				p.editor("a", "Program A", p.compErr),
				p.renderParams(),
				app.H2().Text("Machine"),
				selectField("machine", "Machine", menuValue(p.s.Machine), p.lib.options(p.linkMachine, "From a link or file"), p.onMachine),
				machineSummary(p.s.Machine),
				app.If(p.linkMachine != nil && p.s.Machine.ID == "",
					app.Button().ID("save-link-machine").Text("Save this machine to my machines").OnClick(p.onSaveLinkMachine),
				),
				app.Div().Class("row actions").Body(
					app.Button().ID("run").Text("Run").Disabled(p.prog == nil || running).OnClick(p.onRun),
					app.If(running, app.Button().ID("cancel").Text("Cancel").OnClick(p.onCancel)),
				),
				app.H2().Text("Any size"),
				app.P().Class("note").Text("A size too large to simulate here is predicted: the program runs at a ladder of smaller sizes, each term of its time is fitted over the size, and the fit is checked on the largest sizes it did not see."),
				textField{ID: "f-at", Label: p.sizeLabel() + ", the size to predict", Value: p.form.shown["at"], Hint: "e.g. 2^24, 16Mi", Err: p.errs["at"], OnInput: p.onField("at")}.UI(),
				app.Button().ID("predict").Text("Predict").Disabled(p.prog == nil || running).OnClick(p.onPredict),
				app.H2().Text("A/B"),
				app.Button().ID("toggle-ab").Text(map[bool]string{true: "Close program B", false: "Compare with a second program…"}[p.abOpen]).OnClick(p.onToggleAB),
				app.If(p.abOpen, p.renderB(running)),
			),
			p.renderOutcome(),
		),
		p.renderProfile(),
		p.renderProgramShare(),
	)
}

func (p *programPage) sizeLabel() string {
	if p.prog != nil && len(p.prog.Params) > 0 {
		return p.prog.Params[0].Name
	}
	return "N"
}

// editor is a text area with line numbers beside it; a compile error marks
// its line and says where and what.
func (p *programPage) editor(key, label string, cerr *lang.Error) app.UI {
	text := p.src.text[key]
	n := strings.Count(text, "\n") + 1
	errLine := 0
	if cerr != nil {
		errLine = cerr.Pos.Line
	}
	var nums strings.Builder
	for i := 1; i <= n; i++ {
		nums.WriteString(strconv.Itoa(i))
		nums.WriteByte('\n')
	}
	var status app.UI = app.P().ID("compile-"+key).Class("ok").Aria("live", "polite").Text("Compiles.")
	if cerr != nil {
		status = app.Div().ID("compile-"+key).Class("error").Aria("live", "polite").Body(
			app.Text(cerr.Error()+" "),
			app.Button().Class("link-button").Text(fmt.Sprintf("Go to %d:%d", cerr.Pos.Line, cerr.Pos.Col)).OnClick(p.onGoToError(key, cerr.Pos)),
		)
	}
	return app.Div().Class("field").Body(
		app.Label().For("src-"+key).Text(label),
		app.Div().Class("editor").Body(
			app.Pre().ID("gutter-"+key).Class("gutter").Aria("hidden", "true").DataSet("error-line", errLine).Text(nums.String()),
			app.Textarea().ID("src-"+key).Class("code").Rows(min(max(n+1, 8), 24)).Spellcheck(false).Wrap("off").
				Attr("autocapitalize", "off").Attr("autocomplete", "off").Aria("describedby", "compile-"+key).
				Text(p.src.shown[key]).OnInput(p.onSource(key)).OnScroll(p.onScroll(key)),
			// The mark is always there, after the text area, so that an
			// error appearing or going never makes go-app replace the text
			// area under the user's caret.
			app.Div().Class("error-mark").Hidden(errLine == 0).Style("top", fmt.Sprintf("calc(%d * 1.4em + 0.4rem)", max(errLine-1, 0))),
		),
		status,
	)
}

func (p *programPage) renderParams() app.UI {
	var fields []app.UI
	if p.prog != nil {
		for _, d := range p.prog.Params {
			key := "p-" + d.Name
			fields = append(fields, textField{ID: "f-" + key, Label: d.Name, Value: p.form.shown[key], Hint: "default " + units.FormatCount(d.Default), Err: p.errs[key], OnInput: p.onField(key), Size: 10}.UI())
		}
	}
	return app.Div().Body(
		app.H2().Text("Params"),
		app.If(len(fields) == 0, app.P().Class("note").Text("The program declares no params (write param N = 2^20 to get a field).")),
		app.Div().Class("grid").Body(fields...),
		textField{ID: "f-seed", Label: "Random seed of the data", Value: p.form.shown["seed"], Hint: "the same seed gives the same data", Err: p.errs["seed"], OnInput: p.onField("seed"), Size: 8}.UI(),
		selectField("predictor", "Branch predictor", p.s.Predictor, []option{{Value: "majority", Label: "majority (the MBRAM paper's idealised rule)"}, {Value: "2bit", Label: "2-bit counter per branch"}}, p.onPredictor),
		selectField("branches", "Branches charged", p.s.Branches, []option{{Value: "all", Label: "every condition, loop tests included"}, {Value: "data", Label: "conditions on loaded data (as the built-in kernels)"}}, p.onBranches),
		missCurveBox(p.s.MissCurve, p.onMissCurve),
	)
}

func (p *programPage) renderB(running bool) app.UI {
	return app.Div().ID("ab").Body(
		selectField("example-b", "Example for B", exampleOf(p.s.Compare), exampleOptions("(your program)"), p.onCompareExample),
		p.editor("b", "Program B", p.cmpErr),
		app.Div().Class("grid").Body(
			textField{ID: "f-from", Label: "From " + p.sizeLabel(), Value: p.form.shown["from"], Err: p.errs["from"], OnInput: p.onField("from"), Size: 8}.UI(),
			textField{ID: "f-to", Label: "To " + p.sizeLabel(), Value: p.form.shown["to"], Err: p.errs["to"], OnInput: p.onField("to"), Size: 8}.UI(),
		),
		app.Button().ID("compare").Text("Compare A and B").Disabled(p.prog == nil || p.cmpProg == nil || running).OnClick(p.onCompare),
	)
}

// renderOutcome is the job's status and its results.
func (p *programPage) renderOutcome() app.UI {
	sec := app.Section().ID("outcome").Class("panel result").Aria("label", "Result")
	v := p.view
	if v == nil {
		return sec.Body(
			app.H2().Text("Result"),
			app.P().ID("status-text").Aria("live", "polite").Text("Press Run to simulate the program, Predict for a size too large to simulate, or compare two programs over the size."),
			app.P().Class("note").Text("Every array element read or written is a memory access at its address, every condition a branch; the simulator charges B/β1 for a line that continues a sequential stream, B/β2 for any other, and m for each mispredicted branch. Like the MBRAM paper's closed forms, the time is a lower bound on the paper's machines."),
		)
	}
	var status string
	pc := int(100 * v.frac)
	switch v.state {
	case stateRunning:
		status = fmt.Sprintf("Simulating %s… %s so far", v.what, plural(v.accesses, "access", "accesses"))
	case stateDone:
		status = "Finished: " + v.what + "."
		pc = 100
	case stateCancelled:
		status = "Cancelled: " + v.what + "."
	case stateFailed:
		status = "Stopped: " + v.what + "."
	}
	body := []app.UI{
		app.H2().Text("Result"),
		app.P().ID("status-text").Aria("live", "polite").Text(status),
		app.If(v.kind != "run", progressBar("progress", "Simulation progress", pc, v.state == stateRunning)),
		app.If(v.err != "", app.P().ID("run-error").Class("error").Aria("live", "assertive").Text(v.err)),
	}
	if v.state == stateDone {
		switch v.kind {
		case "run":
			body = append(body, p.renderRunResult(v)...)
		case "predict":
			body = append(body, p.renderPrediction(v)...)
		case "compare":
			body = append(body, p.renderComparison(v)...)
		}
	}
	return sec.DataSet("state", stateName(v.state)).DataSet("kind", v.kind).Body(body...)
}

func (p *programPage) renderRunResult(v *programView) []app.UI {
	r := v.res
	c := r.Counts
	out := []app.UI{
		app.P().Class("total").Body(
			app.Span().ID("prog-seconds").DataSet("seconds", strconv.FormatFloat(r.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(r.Seconds)),
		),
		app.P().Class("note").Text(simulatedLabel(r) + computedIn(float64(v.wall.Microseconds())/1000) + "."),
	}
	if v.closed != nil {
		out = append(out, app.P().ID("prog-closed").DataSet("seconds", strconv.FormatFloat(*v.closed, 'g', -1, 64)).Text(fmt.Sprintf("The closed form of the built-in kernel (%s) gives %s for the same size.", p.s.Kernel, units.FormatSeconds(*v.closed))))
	}
	out = append(out,
		termsTable("prog-terms", "Where the time goes", r.Terms, r.Seconds),
		app.Div().Class("table-wrap").Body(app.Table().ID("prog-counts").Class("counts").Body(
			app.Caption().Text("Counts"),
			app.TBody().Body(
				countRow("Accesses", "accesses", c.Accesses), countRow("Misses (line fills)", "misses", c.Misses),
				countRow("Write-backs", "writebacks", c.Writebacks), countRow("Sequential transfers", "seq", c.SeqTransfers),
				countRow("Random transfers", "rand", c.RandTransfers), countRow("Branches charged", "branches", c.Branches),
				countRow("Mispredictions", "mispredictions", c.Mispredictions), countRow("Dependent accesses (address from a chain of loads)", "dependent", r.Dependent),
				countRow("Steps (loop iterations and calls)", "steps", r.Steps),
			),
		)),
	)
	if len(r.Phases) > 0 {
		out = append(out, phasesTable(r.Phases))
	}
	if r.Hierarchy != nil {
		out = append(out, hierarchyRun("prog-hier", r.Hierarchy))
	}
	if len(r.MissCurves) > 0 {
		out = append(out, missCurve("prog-curve", r.MissCurves, v.mach))
	}
	return out
}

// simulatedLabel names the simulator of a run's total: on a machine that
// gives its cache levels the hierarchy simulator's total follows, so the
// first is named for the model it charges by.
func simulatedLabel(r *lang.Result) string {
	if r.Hierarchy != nil {
		return "MBRAM simulator (the paper's one cache, the machine's last level): simulated"
	}
	return "simulated"
}

func (p *programPage) renderPrediction(v *programView) []app.UI {
	pr := v.pred
	out := []app.UI{
		app.P().Class("total").Body(
			app.Span().ID("pred-seconds").DataSet("seconds", strconv.FormatFloat(pr.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(pr.Seconds)),
		),
		app.P().Text(fmt.Sprintf("at %s = %s", pr.Size, units.FormatCount(pr.At)) +
			map[bool]string{true: ", simulated directly (it fit in the budget).", false: ", extrapolated from the simulated sizes on the chart."}[pr.Direct]),
	}
	if !pr.Direct {
		out = append(out,
			app.P().ID("pred-model").Body(app.Text("Fitted: T("+pr.Size+") = "), app.Code().Text(pr.Model())),
			app.P().ID("pred-heldout").DataSet("max", strconv.FormatFloat(pr.HeldOutMax, 'g', 6, 64)).Text(fmt.Sprintf("Held out: %s; mean error %.1f %%, largest %.1f %%.", pr.HeldOut, 100*pr.HeldOutMean, 100*pr.HeldOutMax)),
		)
		if pr.Note != "" {
			out = append(out, app.P().Class("callout warn").Text(pr.Note))
		}
	}
	if v.closed != nil {
		out = append(out, app.P().ID("prog-closed").DataSet("seconds", strconv.FormatFloat(*v.closed, 'g', -1, 64)).Text(fmt.Sprintf("Closed form of the built-in kernel (%s) at the same size: %s.", p.s.Kernel, units.FormatSeconds(*v.closed))))
	}
	out = append(out, &chart{ID: "pred-chart", Label: fmt.Sprintf("Simulated times over %s with the fitted curve up to %s; the prediction at %s is %s.", pr.Size, units.FormatCount(pr.At), units.FormatCount(pr.At), units.FormatSeconds(pr.Seconds)), Option: v.chart})
	return out
}

func (p *programPage) renderComparison(v *programView) []app.UI {
	cmp := v.cmp
	var cross app.UI
	if len(cmp.Crossovers) == 0 {
		last := cmp.Points[len(cmp.Points)-1]
		faster := "A"
		if last.B < last.A {
			faster = "B"
		}
		cross = app.P().ID("crossover").DataSet("n", 0).Text(fmt.Sprintf("No crossover in this range: %s is faster throughout.", faster))
	} else {
		var xs []string
		for _, x := range cmp.Crossovers {
			xs = append(xs, units.FormatCount(int64(math.Round(x))))
		}
		cross = app.P().ID("crossover").DataSet("n", int64(math.Round(cmp.Crossovers[0]))).Body(
			app.Text("The faster program changes at "+cmp.Size+" ≈ "),
			app.Strong().Text(strings.Join(xs, ", ")),
			app.Text("."),
		)
	}
	rows := app.Range(cmp.Points).Slice(func(i int) app.UI {
		pt := cmp.Points[i]
		return app.Tr().Body(
			app.Td().Class("num").Text(units.FormatCount(pt.Size)),
			app.Td().Class("num").Text(units.FormatSeconds(pt.A)),
			app.Td().Class("num").Text(units.FormatSeconds(pt.B)),
			app.Td().Class("num").Text(strconv.FormatFloat(pt.Ratio(), 'f', 3, 64)),
		)
	})
	return []app.UI{
		cross,
		&chart{ID: "ab-chart", Label: "Simulated times of programs A and B over " + cmp.Size + ", with the crossover marked.", Option: v.chart},
		app.Div().Class("table-wrap").Body(app.Table().ID("ab-table").Body(
			app.Caption().Text("Simulated times"),
			app.THead().Body(app.Tr().Body(app.Th().Text(cmp.Size), app.Th().Text("A"), app.Th().Text("B"), app.Th().Text("B/A"))),
			app.TBody().Body(rows),
		)),
	}
}

// renderProfile is the per-line profile beside the source of the run.
func (p *programPage) renderProfile() app.UI {
	v := p.view
	if v == nil || v.res == nil || v.state != stateDone || v.kind == "compare" {
		return nil
	}
	r := v.res
	by := map[int]lang.LineProfile{}
	for _, l := range r.Lines {
		by[l.Line] = l
	}
	lines := strings.Split(strings.TrimRight(v.source, "\n"), "\n")
	rows := make([]app.UI, 0, len(lines)+1)
	row := func(n int, text string) app.UI {
		l, ok := by[n]
		tr := app.Tr().DataSet("line", n)
		code := app.Td().Class("code").Body(app.Code().Text(text))
		if !ok {
			return tr.Body(app.Td().Class("num").Text(strconv.Itoa(n)), code, app.Td(), app.Td(), app.Td(), app.Td(), app.Td())
		}
		share := 0.0
		if r.Seconds > 0 {
			share = l.Seconds / r.Seconds
		}
		return tr.DataSet("seconds", strconv.FormatFloat(l.Seconds, 'g', -1, 64)).Body(
			app.Td().Class("num").Text(strconv.Itoa(n)),
			code,
			app.Td().Class("num").DataSet("accesses", l.Accesses).Text(groupDigits(l.Accesses)),
			app.Td().Class("num").DataSet("misses", l.Misses).Text(groupDigits(l.Misses)),
			app.Td().Class("num").Text(groupDigits(l.Writebacks)),
			app.Td().Class("num").DataSet("mispredictions", l.Mispredictions).Text(groupDigits(l.Mispredictions)),
			app.Td().Class("num bar").Style("--share", strconv.FormatFloat(share, 'f', 4, 64)).Text(units.FormatSeconds(l.Seconds)+fmt.Sprintf(" (%.0f %%)", 100*share)),
		)
	}
	for i, text := range lines {
		if n := i + 1; by[n].Accesses > 0 || by[n].Branches > 0 || strings.TrimSpace(text) != "" {
			rows = append(rows, row(n, text))
		}
	}
	if _, ok := by[0]; ok {
		rows = append(rows, row(0, "(end of run: write-backs of the lines still dirty)"))
	}
	title := "Per-line profile"
	if v.kind == "predict" && v.pred != nil && !v.pred.Direct {
		title += fmt.Sprintf(" of the largest simulated run (%s = %s)", v.pred.Size, units.FormatCount(v.pred.Points[len(v.pred.Points)-1].Size))
	}
	return app.Section().ID("profile").Class("panel").Aria("label", "Per-line profile").Body(
		app.H2().Text(title),
		app.P().Class("note").Text("Each line's accesses, the misses and write-backs they caused, its mispredicted branches, and the seconds those cost. A write-back is charged to the access whose miss evicted the dirty line."),
		app.Div().Class("table-wrap").Body(app.Table().ID("profile-table").Class("profile").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Line"), app.Th().Scope("col").Text("Source"), app.Th().Scope("col").Text("Accesses"),
				app.Th().Scope("col").Text("Misses"), app.Th().Scope("col").Text("Write-backs"), app.Th().Scope("col").Text("Mispredicted"),
				app.Th().Scope("col").Text("Time"),
			)),
			app.TBody().Body(rows...),
		)),
	)
}

func (p *programPage) renderProgramShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.If(p.shareErr == "",
			linkRow("share-link", "copy-link", "Link to this program", p.share, p.onCopy),
		).Else(
			app.P().ID("share-error").Class("error").Text(p.shareErr),
		),
		app.Div().Class("row actions").Body(
			app.Button().ID("download-scenario").Text("Download as a file (JSON)").OnClick(p.onDownload),
			app.Button().ID("download-source").Text("Download the program").OnClick(p.onDownloadSource),
			app.Label().Class("button").For("open-scenario").Text("Open a file…"),
			app.Input().ID("open-scenario").Type("file").Accept(".json,.mw,.c,.txt").Class("visually-hidden").OnChange(p.onOpenFile),
		),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link carries the programs (compressed), their params, the machine and the options after the #, so it opens with the same numbers anywhere, also offline."),
	)
}
