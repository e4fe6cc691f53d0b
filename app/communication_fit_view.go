package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/fit"
	"memwall/engine/numl"
	"memwall/engine/units"
)

// fmtSE formats s_e for the table, in time units for a time column.
func fmtSE(v float64, seconds bool) string {
	if !finite(v) {
		return "—"
	}
	if seconds {
		return units.FormatSeconds(v)
	}
	return fmt.Sprintf("%.4g", v)
}

func fmtD(st fit.Stats) string {
	if !st.DDefined {
		return "—"
	}
	return fmt.Sprintf("%.3g", st.D)
}

func fmtRel(v float64, n int) string {
	if n == 0 || !finite(v) {
		return "—"
	}
	if 100*v >= 1000 {
		return fmt.Sprintf("%.0f%%", 100*v) // 2880%, not 2.88e+03%
	}
	return fmt.Sprintf("%.3g%%", 100*v)
}

// modelText writes a fitted model with its coefficients in time units
// when the measured column is a time.
func modelText(m fit.Model, seconds bool) string {
	var b strings.Builder
	for i, t := range m.Terms {
		c := m.Coef[i]
		v := fmt.Sprintf("%.4g", c)
		if seconds {
			v = units.FormatSeconds(c)
		}
		switch {
		case i == 0:
			b.WriteString(v)
		case c < 0:
			b.WriteString(" − " + strings.TrimPrefix(v, "-"))
		default:
			b.WriteString(" + " + v)
		}
		if t.Canonical() != "1" {
			b.WriteString("·" + t.String())
		}
	}
	return b.String()
}

func (p *communicationPage) renderFit() app.UI {
	f := p.fit
	src := ""
	if f.tbl != nil {
		src = f.tbl.Title
		if src == "" && p.form.text["data"] == fileData {
			src = f.fileName
		}
		if f.tbl.Source != "" {
			src += ": " + f.tbl.Source
		}
		src += fmt.Sprintf(". %d rows: %d for training, %d for the test.", f.tbl.Len(), f.trainN, f.testN)
	}
	body := []app.UI{
		app.H2().Text("Fit the models to measurements"),
		app.P().Class("note").Text("The lines-touched paper, section 4: the standard sets S1–S3 over messages m and bytes n, and M1–M3, which add the lines touched u, fitted by least squares on the training rows and judged on the others: s_e is the error's standard deviation (eq. 10), D the share of the variation left unexplained (eq. 11: 0 is perfect, below 0.01 acceptable). The built-in times were measured on the development machine by memwall numl measure; run it on yours and import the file."),
		app.Div().Class("row").Body(
			selectField("comm-data", "Measured data", p.form.text["data"], p.dataOptions(), p.onData),
			selectField("comm-y", "Measured column", p.form.text["y"], columnOptions(f.tbl, ""), p.onY),
			textField{ID: "comm-train", Label: "Training rows", Value: p.form.shown["train"], Hint: "a condition such as W != 4000 or m == 1; the other rows are the test set; empty: all rows", Err: f.trainErr, OnInput: p.onTrain, Size: 24}.UI(),
		),
		app.Div().Class("row actions").Body(
			app.Label().Class("button").For("comm-file").Text("Import CSV or JSON…"),
			app.Input().ID("comm-file").Type("file").Accept(".csv,.json,text/csv,application/json").Class("visually-hidden").OnChange(p.onImport),
		),
		app.Small().Class("hint").Text("Columns n (bytes) and u (lines touched), m (messages) if it varies, and a time such as time_us: what memwall numl measure writes. The file stays in this browser."),
		f.imp.errorView(),
		f.imp.report(p.onImportGood, p.onImportCancel, "No row of the file could be read; nothing was changed."),
		app.If(src != "", app.P().ID("fit-source").Class("source").Text(src)),
	}
	if f.err != "" {
		body = append(body, app.P().ID("fit-error").Class("error").Text(f.err))
	}
	if len(f.sets) > 0 {
		body = append(body, p.renderFitTable(), fitDoubts(f.sets), &chart{ID: "fit-chart", Label: "Predicted against measured time per row, log-log, for S1 and M1, training and test rows", Option: f.chart, Height: 380})
		if f.hidden > 0 {
			body = append(body, app.P().Class("note").Text(fmt.Sprintf("%d prediction(s) that are not positive cannot be drawn on log axes.", f.hidden)))
		}
		canUse := p.setResult(numl.S1) != nil && p.setResult(numl.M1) != nil && f.seconds
		body = append(body,
			app.Div().Class("row actions").Body(
				app.Button().ID("comm-use").Type("button").Text("Use these coefficients").Disabled(!canUse).OnClick(p.onUseFit),
			),
			app.P().Class("note").Text("Puts the S1 fit's per-message and per-byte costs into the standard model of the convolution below, and M1's with its per-line cost into M1, keeping the statement costs, so the crossover is predicted from measured numbers."),
			app.If(!f.seconds, app.P().Class("note").Text("The measured column is not a time (no unit such as _us in its header), so its coefficients cannot be used as costs.")),
			app.If(f.useNote != "", app.P().ID("use-note").Class("notice").Aria("live", "polite").Text(f.useNote)),
		)
	}
	return app.Section().ID("fit").Class("panel").Aria("label", "Model fitting").Body(body...)
}

func (p *communicationPage) renderFitTable() app.UI {
	f := p.fit
	return app.Div().Class("table-wrap").Body(app.Table().ID("fit-table").Body(
		app.THead().Body(
			app.Tr().Body(
				app.Th().Text(""), app.Th().Text(""),
				app.Th().ColSpan(4).Text(fmt.Sprintf("training (%d rows)", f.trainN)),
				app.Th().ColSpan(4).Text(fmt.Sprintf("test (%d rows)", f.testN)),
			),
			app.Tr().Body(
				app.Th().Text("model"), app.Th().Text("fitted"),
				app.Th().Text("s_e"), app.Th().Text("D"), app.Th().Text("mean rel."), app.Th().Text("max rel."),
				app.Th().Text("s_e"), app.Th().Text("D"), app.Th().Text("mean rel."), app.Th().Text("max rel."),
			),
		),
		app.TBody().Body(app.Range(f.sets).Slice(func(i int) app.UI {
			s := f.sets[i]
			name := s.Set.Name
			head := app.Th().Scope("row").Title(s.Set.Description).Text(name)
			if s.Err != nil {
				return app.Tr().ID("fit-"+name).Body(head, app.Td().ColSpan(9).Class("error").Text(s.Err.Error()))
			}
			r := s.Result
			cell := func(key, v string) app.UI { return app.Td().ID("fit-" + name + "-" + key).Class("num").Text(v) }
			if short := shortDoubts(r); short != "" {
				head = app.Th().Scope("row").Title(s.Set.Description).Body(
					app.Text(name+" "),
					app.Span().ID("fit-"+name+"-doubt").Class("doubt").Text("⚠ "+short),
				)
			}
			return app.Tr().ID("fit-"+name).Body(
				head,
				app.Td().ID("fit-"+name+"-model").Class("model").Text(modelText(r.Model, f.seconds)),
				cell("se-train", fmtSE(r.Train.SE, f.seconds)), cell("D-train", fmtD(r.Train)),
				cell("mean-train", fmtRel(r.Train.MeanRel, r.Train.RelN)), cell("max-train", fmtRel(r.Train.MaxRel, r.Train.RelN)),
				cell("se-test", map[bool]string{true: fmtSE(r.Test.SE, f.seconds), false: "—"}[r.Test.N > 0]), cell("D-test", fmtD(r.Test)),
				cell("mean-test", fmtRel(r.Test.MeanRel, r.Test.RelN)), cell("max-test", fmtRel(r.Test.MaxRel, r.Test.RelN)),
			)
		})),
	))
}

// fitCompareOption draws predicted against measured for S1 and M1,
// log-log, training and test rows apart, with the line of agreement; it
// returns how many points could not be drawn.
func fitCompareOption(s1, m1 *fit.Result, seconds bool) (string, int) {
	var sc fitScatter
	var series []any
	add := func(name string, res *fit.Result, symbol, color string) {
		if res == nil {
			return
		}
		train, test := sc.points(res)
		series = append(series,
			map[string]any{"type": "scatter", "name": name + ", training", "data": train, "symbol": symbol, "symbolSize": 7, "itemStyle": map[string]any{"color": color}},
			map[string]any{"type": "scatter", "name": name + ", test", "data": test, "symbol": symbol, "symbolSize": 9,
				"itemStyle": map[string]any{"color": "transparent", "borderColor": color, "borderWidth": 1.5}})
	}
	add("S1", s1, "circle", "#d97706")
	add("M1", m1, "diamond", "#1d4ed8")
	return sc.option(series, seconds), sc.hidden
}

// shortDoubts names what makes a fit doubtful in a few words for its table
// row ("mean error 304%, negative coefficient"); fit.Result.Doubts says it
// in full under the table.
func shortDoubts(r *fit.Result) string {
	var ws []string
	for _, c := range r.Model.Coef {
		if c < 0 {
			ws = append(ws, "negative coefficient")
			break
		}
	}
	for _, st := range []fit.Stats{r.Train, r.Test} {
		if st.RelN > 0 && st.MeanRel > fit.DoubtfulRel {
			ws = append(ws, fmt.Sprintf("mean error %.0f%%", 100*st.MeanRel))
			break
		}
	}
	return strings.Join(ws, ", ")
}

// fitDoubts lists, under the fit table, what makes each doubtful fit so.
func fitDoubts(sets []numl.SetFit) app.UI {
	var ws []string
	for _, s := range sets {
		if s.Err != nil || s.Result == nil {
			continue
		}
		for _, d := range s.Result.Doubts() {
			ws = append(ws, s.Set.Name+": "+d)
		}
	}
	return fitWarnings("fit-doubts", ws)
}
