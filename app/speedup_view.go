package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/presets"
)

// Rendering.

func (p *speedupPage) Render() app.UI {
	return shell("/speedup",
		app.H1().Text("Speedup"),
		app.P().Class("lead").Text("Will it run faster on more processors, and up to how many? Fit a running time T(N, P) = Seq(N, P) + Par(N, P)/P, written as terms from the algorithm's analysis, to times measured on a small characterisation region, and predict speedup beyond it (Chittor's thesis)."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			p.renderInputs(),
			p.renderFit(),
		),
		p.renderSpeedup(),
		p.renderPredictions(),
		p.renderSearch(),
		p.renderShare(),
	)
}

func (p *speedupPage) dataOptions() []option {
	var opts []option
	for _, d := range presets.Datasets() {
		if speedupDataset(d.ID) {
			opts = append(opts, option{Value: d.ID, Label: datasetLabel(d), Group: "Built in"})
		}
	}
	if p.file != nil {
		opts = append(opts, option{Value: fileData, Label: p.fileName, Group: "Imported"})
	}
	return opts
}

// datasetLabel names a Chittor's thesis table by its number first ("Table 6: ...").
func datasetLabel(d presets.DatasetInfo) string {
	if n, ok := strings.CutPrefix(d.ID, "chittor-table"); ok {
		return "Table " + n + ": " + d.Title
	}
	return d.Title
}

func columnOptions(t *dataset.Table, none string) []option {
	var opts []option
	if none != "" {
		opts = append(opts, option{Value: "", Label: none})
	}
	for _, c := range numericColumns(t) {
		opts = append(opts, option{Value: c.Name, Label: c.Header})
	}
	return opts
}

// termSetValue is the term menu's entry for the current terms.
func (p *speedupPage) termSetValue() string {
	if p.model != "" {
		return p.model
	}
	for _, ts := range presets.TermSets() {
		if sameTerms(ts.Terms, p.spec.terms) && strings.TrimSpace(p.text["terms"]) != "" && len(p.errs) == 0 {
			return ts.ID
		}
	}
	return "custom"
}

// termSetLabel is the term menu's label for the current terms.
func (p *speedupPage) termSetLabel() string {
	v := p.termSetValue()
	for _, o := range termSetOptions() {
		if o.Value == v {
			return o.Label
		}
	}
	return ""
}

func termSetOptions() []option {
	opts := []option{{Value: "custom", Label: "Your own terms (type them below)", Group: "Typed"}}
	for _, ts := range presets.TermSets() {
		opts = append(opts, option{Value: ts.ID, Label: ts.Equation + ": " + ts.Title, Group: "Functional forms of Chittor's thesis"})
	}
	for _, m := range presets.FittedModels() {
		opts = append(opts, option{Value: m.ID, Label: m.Equation + ": " + m.Title, Group: "Published fits (terms and region)"})
	}
	return opts
}

func (p *speedupPage) renderInputs() app.UI {
	src := ""
	if p.tbl != nil {
		src = p.tbl.Source
		if p.tbl.Notes != "" {
			src += ". " + p.tbl.Notes
		}
	}
	return app.Section().Class("panel inputs").Aria("label", "Inputs").Body(
		app.H2().Text("Data"),
		selectField("data", "Measured data", p.data, p.dataOptions(), p.onData),
		app.If(src != "", app.P().ID("data-source").Class("source").Text(src)),
		renderGlossary("speedup-glossary", glossaryFor(src, p.termSetLabel())),
		app.Div().Class("row actions").Body(
			app.Label().Class("button").For("speedup-file").Text("Import CSV or JSON…"),
			app.Input().ID("speedup-file").Type("file").Accept(".csv,.json,text/csv,application/json").Class("visually-hidden").OnChange(p.onImport),
		),
		app.Small().Class("hint").Text("A header row naming the columns, e.g. N,P,T; units in the header (time_ms) or the cells (1.5ms). The file stays in this browser."),
		p.imp.errorView(),
		p.imp.report(p.onImportGood, p.onImportCancel, "No row of the file could be read; nothing was changed."),
		app.Div().Class("row").Body(
			selectField("y-col", "Measured column", p.yCol, columnOptions(p.tbl, ""), p.onColumn("y")),
			selectField("n-col", "N, problem size", p.nCol, columnOptions(p.tbl, "(none)"), p.onColumn("n")),
			selectField("p-col", "P, processors", p.pCol, columnOptions(p.tbl, "(none)"), p.onColumn("p")),
		),
		app.H2().Text("Model"),
		selectField("term-set", "Terms from", p.termSetValue(), termSetOptions(), p.onTermSet),
		textField{ID: "terms", Label: "Terms", Value: p.shown["terms"], Hint: "comma-separated, e.g. 1, N/P*log2(P)^2, P*log2(P); logarithms are base 2", Err: p.errs["terms"], OnInput: p.onText("terms"), Size: 40}.UI(),
		app.If(p.termsAt >= 0 && p.termsAt <= len(p.text["terms"]),
			app.Pre().ID("terms-caret").Aria("hidden", "true").Style("margin", "0 0 0.6rem").Style("overflow-x", "auto").
				Text(p.text["terms"]+"\n"+strings.Repeat(" ", runeCount(p.text["terms"], p.termsAt))+"^"),
		),
		textField{ID: "region", Label: "Characterisation region (training rows)", Value: p.shown["region"], Hint: "a condition, e.g. N <= 2^9 && P <= 2^4; empty: every row", Err: p.errs["region"], OnInput: p.onText("region"), Size: 28}.UI(),
		selectField("weighting", "Weighting", p.weighting.String(), []option{
			{Value: "auto", Label: "auto: the one that cross-validates better"},
			{Value: "abs", Label: "absolute least squares (as in Chittor's thesis)"},
			{Value: "rel", Label: "relative least squares (1/y² weights)"},
		}, p.onWeighting),
		app.If(p.curvesPossible(),
			app.H2().Text("Speedup chart"),
			textField{ID: "n", Label: "N, problem size for the chart", Value: p.shown["n"], Hint: "e.g. 8192, 8Ki, 2^13", Err: p.errs["n"], OnInput: p.onText("n"), Size: 10}.UI(),
			app.Div().Class("row").Body(
				textField{ID: "pfrom", Label: "P from", Value: p.shown["pfrom"], Hint: "processors, 1 to 2^20", Err: p.errs["pfrom"], OnInput: p.onText("pfrom"), Size: 8}.UI(),
				textField{ID: "pto", Label: "P to", Value: p.shown["pto"], Hint: "up to N and 2^20; beyond the data to find a roll-off", Err: p.errs["pto"], OnInput: p.onText("pto"), Size: 8}.UI(),
			),
			textField{ID: "work", Label: "W(N), work for Sun–Ni's memory-bounded speedup", Value: p.shown["work"], Hint: "a term in N, e.g. N*log2(N)^2 for a sorting network; empty leaves the curve out", Err: p.errs["work"], OnInput: p.onText("work"), Size: 16}.UI(),
		),
	)
}

// runeCount is the number of characters before a byte offset, for the caret.
func runeCount(s string, off int) int {
	if off > len(s) {
		off = len(s)
	}
	if off < 0 {
		off = 0
	}
	return len([]rune(s[:off]))
}

func (p *speedupPage) renderFit() app.UI {
	o := p.out
	sec := app.Section().ID("fit").Class("panel result").Aria("live", "polite").Aria("label", "Fit")
	if o.err != "" {
		return sec.Body(app.H2().Text("Fit"), app.P().ID("fit-error").Class("error").Text(o.err),
			app.If(p.stale, app.P().Class("stale").Text("Fix the marked field.")))
	}
	if o.res == nil {
		return sec.Body(app.H2().Text("Fit"), app.P().Class("stale").Text("Fix the marked field to see the fit."))
	}
	r := o.res
	region := "every row"
	if p.spec.cond.Valid() {
		region = p.spec.cond.String()
	}
	return sec.Body(
		app.H2().Text("Fit"),
		app.If(p.stale, app.P().Class("stale").Text("Showing the last valid inputs: fix the marked field.")),
		app.P().ID("model").Body(app.Code().Text(p.yCol+" = "+r.Model.String())),
		app.P().ID("weighting-used").Body(
			app.Strong().Text("Weighting: "+weightingName(r.Weighting)+". "),
			app.Text(r.WeightingReason+"."),
		),
		app.P().ID("rows-used").Text(fmt.Sprintf("Fitted on the %d rows where %s (characterisation region); validated on the other %d (prediction region). %d terms%s.",
			len(r.TrainRows), region, len(r.TestRows), len(r.Model.Terms), computedIn(o.millis))),
		app.Div().Class("table-wrap").Body(app.Table().ID("coef").Body(
			app.Caption().Text("Coefficients"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Term"),
				numTh().Text("Fitted"),
				app.If(o.published != nil, numTh().Text("Published")),
			)),
			app.TBody().Body(app.Range(r.Model.Terms).Slice(func(i int) app.UI {
				return app.Tr().Body(
					app.Th().Scope("row").Body(app.Code().Text(r.Model.Terms[i].String())),
					app.Td().Class("num").Text(fmtNum(r.Model.Coef[i])),
					app.If(o.published != nil, app.Td().Class("num").Text(publishedCoef(o.published, i))),
				)
			})),
		)),
		app.If(o.published != nil, app.P().ID("published-note").Class("note").Text(publishedNote(o.published))),
		statsTable(r),
		fitWarnings("fit-warnings", append(r.Doubts(), r.Warnings...)),
		app.P().Class("note").Text("s_e = √(SSE/(n − p)), the typical error; D = SSE/SST, the share of the variation the model leaves unexplained (0 is perfect, below 0.01 acceptable); R² = 1 − D; relative errors |ŷ − y|/|y|. Condition number of the design matrix, its columns scaled to length 1: "+fmtNum(r.Cond)+" (how much the data's rounding can move the coefficients; above about 10^6 they are not to be trusted)."),
	)
}

func publishedCoef(m *presets.FittedModel, i int) string {
	if m == nil || i >= len(m.Coef) {
		return "—"
	}
	return fmtNum(m.Coef[i])
}

func publishedNote(m *presets.FittedModel) string {
	if m == nil {
		return ""
	}
	return "Published: " + m.Equation + " (" + m.Title + "), fitted on " + m.Region + ", in " + m.Unit + "; " + m.Source + "."
}

func weightingName(w fit.Weighting) string {
	switch w {
	case fit.Absolute:
		return "absolute"
	case fit.Relative:
		return "relative"
	}
	return "auto"
}

// statsTable shows the statistics of both regions side by side, one row
// per statistic, so it fits beside the inputs.
func statsTable(r *fit.Result) app.UI {
	type stat struct {
		name string
		val  func(fit.Stats) string
	}
	d := func(f func(fit.Stats) float64) func(fit.Stats) string {
		return func(s fit.Stats) string {
			if !s.DDefined {
				return "—"
			}
			return fmtNum(f(s))
		}
	}
	stats := []stat{
		{"n, rows", func(s fit.Stats) string { return strconv.Itoa(s.N) }},
		{"s_e, error standard deviation", func(s fit.Stats) string { return fmtNum(s.SE) }},
		{"D = SSE/SST", d(func(s fit.Stats) float64 { return s.D })},
		{"R²", d(func(s fit.Stats) float64 { return s.R2 })},
		{"mean relative error", func(s fit.Stats) string { return fmtPct(s.MeanRel) }},
		{"median relative error", func(s fit.Stats) string { return fmtPct(s.MedianRel) }},
		{"max relative error", func(s fit.Stats) string { return fmtPct(s.MaxRel) }},
	}
	cell := func(s fit.Stats, f func(fit.Stats) string) app.UI {
		if s.N == 0 {
			return app.Td().Class("num").Text("—")
		}
		return app.Td().Class("num").Text(f(s))
	}
	return app.Div().Class("table-wrap").Body(app.Table().ID("stats").Body(
		app.Caption().Text("How well it fits"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Statistic"),
			numTh().Text("Characterisation (fitted)"),
			numTh().Text("Prediction (validated)"),
		)),
		app.TBody().Body(app.Range(stats).Slice(func(i int) app.UI {
			st := stats[i]
			return app.Tr().Body(app.Th().Scope("row").Text(st.name), cell(r.Train, st.val), cell(r.Test, st.val))
		})),
	))
}

func (p *speedupPage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		linkRow("speedup-link", "copy-link", "Link to this fit", p.share, p.onCopy, downloadButton("speedup-download", p.onDownloadScenario)),
		app.If(p.shareErr != "", app.P().Class("note").Text(p.shareErr)),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link holds the data set, terms, region, weighting and N after the #, so it opens with the same numbers anywhere, also offline. Imported data stays in this browser. memwall fit reads the link with --link and the file with --scenario."),
	)
}
