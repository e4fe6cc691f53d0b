package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/hier"
	"memwall/engine/units"
	"memwall/presets"
)

func (p *dataPage) Render() app.UI {
	return shell("/data",
		app.H1().Text("Data"),
		app.P().Class("lead").Text("How far is a measured time from what the hardware allows? Import times measured for the MBRAM kernels; each row is predicted on the machine it names, and measured is set against predicted."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			p.renderInputs(),
			p.renderSummary(),
		),
		app.Section().ID("chart").Class("panel").Aria("label", "Chart").Hidden(p.cmp.Rel.N == 0).Body(
			app.H2().Text("Measured against predicted, per kernel"),
			&chart{ID: "compare-chart", Label: "Measured against predicted time, log-log, one series per kernel, with the line where they agree", Option: p.chartOpt, Height: 420},
			app.P().Class("note").Text("Points above the dashed line took longer than predicted, as a lower bound expects."+
				map[bool]string{true: " The diamonds are the hierarchy model's estimates, which should lie on it.", false: ""}[p.cmp.HierRel.N > 0]),
		),
		p.renderClasses(),
		p.renderRows(),
	)
}

func (p *dataPage) dataOptions() []option {
	opts := []option{{Value: mbramData, Label: "The MBRAM paper, Figs. 3–5: measured times on four Pentiums", Group: "Built in"}}
	sets, _ := presets.ValidationSets()
	for _, s := range sets {
		opts = append(opts, option{Value: s.ID, Label: s.Title, Group: "Built in"})
	}
	if p.file != nil {
		opts = append(opts, option{Value: fileData, Label: p.fileName, Group: "Imported"})
	}
	if p.report != nil {
		opts = append(opts, option{Value: reportData, Label: p.report.Title + " (validate report)", Group: "Imported"})
	}
	return opts
}

// source cites the data set shown: a shipped table's source, or what an
// imported validate report is.
func (p *dataPage) source() string {
	if p.data == reportData && p.report != nil {
		return p.report.Source
	}
	return validationSource(p.data)
}

func (p *dataPage) roleOptions(text, optional bool) []option {
	var opts []option
	if optional {
		opts = append(opts, option{Value: "", Label: "(none: the MBRAM paper's default)"})
	} else {
		opts = append(opts, option{Value: "", Label: "(choose a column)"})
	}
	if p.file == nil {
		return opts
	}
	for _, c := range p.file.Columns {
		if (c.Kind == dataset.Text) == text {
			opts = append(opts, option{Value: c.Name, Label: c.Header})
		}
	}
	return opts
}

func (p *dataPage) renderInputs() app.UI {
	return app.Section().Class("panel inputs").Aria("label", "Inputs").Body(
		app.H2().Text("Measured times"),
		selectField("data", "Data set", p.data, p.dataOptions(), p.onData),
		app.If(p.data != mbramData && p.data != fileData, app.P().ID("data-source").Class("source").Text(p.source())),
		app.If(p.data == mbramData, app.P().ID("data-source").Class("source").Text("The experiment column of G. Cooperman, X. Ma, V. H. Nguyen, Static Performance Evaluation for Memory-Bound Computing: the MBRAM Model (the MBRAM paper), Figs. 3 (permutation products), 4 (matrix products) and 5 (sorts), on the machines of Fig. 2.")),
		app.Div().Class("row actions").Body(
			app.Label().Class("button").For("data-file").Text("Import CSV or JSON…"),
			app.Input().ID("data-file").Type("file").Accept(".csv,.json,text/csv,application/json").Class("visually-hidden").OnChange(p.onImport),
		),
		app.Small().Class("hint").Text("Columns like kernel, n, w, b, machine, seconds (or time_ms); kernel holds an id such as quicksort, machine a preset id such as p4-1.7-pc133 or one of your machines. Or the JSON of memwall validate --json, whose machine is in your library. The file stays in this browser."),
		p.imp.errorView(),
		p.imp.report(p.onImportGood, p.onImportCancel, ""),
		app.If(p.data == fileData && p.file != nil,
			app.H2().Text("Columns"),
			app.Range(dataRoles).Slice(func(i int) app.UI {
				r := dataRoles[i]
				return selectField("role-"+r.Key, r.Label, p.roles[r.Key], p.roleOptions(r.Text, r.Optional), p.onRole(r.Key))
			}),
			app.P().Class("note").Text("A time column without a unit in its header or cells is read as seconds; w defaults to 4 bytes and b to 64 buckets."),
		),
	)
}

func (p *dataPage) renderSummary() app.UI {
	s, q := p.cmp.Rel, p.cmp.Ratio
	sec := app.Section().ID("summary").Class("panel result").Aria("live", "polite").Aria("label", "Summary")
	if s.N == 0 {
		return sec.Body(app.H2().Text("Measured against predicted"), app.P().ID("no-rows").Text("No row can be compared yet."),
			p.renderSkipped())
	}
	hs, hq := p.cmp.HierRel, p.cmp.HierRatio
	both := hs.N > 0
	// row is one summary line: the paper's model's value and, when some
	// rows have it, the hierarchy model's beside it.
	// A range may break after its dash, so that both columns fit a phone.
	row := func(name, v, h string) app.UI {
		cls := "num"
		if strings.Contains(v+h, " – ") {
			cls = "num wrap"
		}
		return app.Tr().Body(app.Th().Scope("row").Text(name), app.Td().Class(cls).Text(v),
			app.If(both, app.Td().Class(cls).Text(h)))
	}
	return sec.Body(
		app.H2().Text("Measured against predicted"),
		app.Div().Class("table-wrap").Body(app.Table().ID("errors").Body(
			app.Caption().Text(fmt.Sprintf("%d rows compared", s.N)),
			app.If(both, app.THead().Body(app.Tr().Body(
				app.Td(), numTh().Text("MBRAM"), numTh().Text("hierarchy"),
			))),
			app.TBody().Body(
				row("mean relative error", fmtPct(s.Mean), fmtPct(hs.Mean)),
				row("median relative error", fmtPct(s.Median), fmtPct(hs.Median)),
				row("max relative error", fmtPct(s.Max), fmtPct(hs.Max)),
				row("measured/predicted, median", fmtRatio(q.Median), fmtRatio(hq.Median)),
				row("measured/predicted, range", fmtRatio(q.Min)+" – "+fmtRatio(q.Max), fmtRatio(hq.Min)+" – "+fmtRatio(hq.Max)),
				app.If(both, row(fmt.Sprintf("within [%g, %g]", hier.BandLo, hier.BandHi), "—", fmt.Sprintf("%d of %d", p.cmp.HierBand, hs.N))),
			),
		)),
		app.P().Class("note").Text("Relative error = |predicted − measured|/measured. MBRAM predictions are lower bounds on the paper's machines (nothing is charged for hits in the smaller caches, TLB misses or instructions), so a ratio measured/predicted of 1 or above is what the model expects there."),
		app.If(both, app.P().Class("note").Text(fmt.Sprintf("The hierarchy model predicts the %d rows whose machine gives its cache levels: an estimate, not a bound, held to measured/predicted within [%g, %g].", hs.N, hier.BandLo, hier.BandHi))),
		p.renderSkipped(),
	)
}

func (p *dataPage) renderSkipped() app.UI {
	sk := p.cmp.Skipped
	if len(sk) == 0 {
		return app.Div().Hidden(true)
	}
	return app.Div().ID("skipped").Class("callout warn").Body(
		app.P().Text(fmt.Sprintf("%d row(s) or cell(s) left out:", len(sk))),
		app.Ul().Body(app.Range(limit(sk, 50)).Slice(func(i int) app.UI { return app.Li().Text(limit(sk, 50)[i]) })),
	)
}

func (p *dataPage) renderRows() app.UI {
	rows := p.cmp.Rows
	both := p.cmp.HierRel.N > 0
	shown := rows
	if len(shown) > maxShownRows {
		shown = shown[:maxShownRows]
	}
	unc := false
	for _, r := range shown {
		unc = unc || r.HierUnc > 0
	}
	return app.Section().ID("rows").Class("panel").Aria("label", "Rows").Hidden(len(rows) == 0).Body(
		app.H2().Text("Every row"),
		app.P().Class("note").Text("source: the line of an imported file, the paper's figure, or the size class of a validate run; ratio = measured/predicted; b is shown for the bucket and radix sorts, which read it."+
			map[bool]string{true: " The two columns after the MBRAM ratio are the hierarchy model's prediction and ratio, for machines that give their cache levels; the relative error is the MBRAM model's.", false: ""}[both]+
			map[bool]string{true: " ± is how far the calibration's spreads move the hierarchy prediction, each parameter by its own, added in quadrature.", false: ""}[unc]),
		app.P().Body(app.Button().ID("download-comparison").Text("Download the comparison (CSV)").OnClick(p.onDownload)),
		app.If(len(rows) > len(shown), app.P().Class("note").Text(fmt.Sprintf("The table shows the first %d of %d rows; the CSV has them all.", len(shown), len(rows)))),
		app.Div().Class("table-wrap").Body(app.Table().ID("row-table").Body(
			app.THead().Body(app.Tr().Body(
				numTh().Text("source"),
				app.Th().Scope("col").Text("kernel"),
				app.Th().Scope("col").Text("machine"),
				numTh().Text("N"),
				numTh().Text("w"),
				numTh().Text("b"),
				numTh().Text("measured"),
				numTh().Text("predicted"),
				numTh().Text("ratio"),
				app.If(both, numTh().Text("hierarchy"), numTh().Text("ratio")),
				app.If(unc, numTh().Text("±")),
				numTh().Text("rel. error"),
			)),
			app.TBody().Body(app.Range(shown).Slice(func(i int) app.UI {
				r := shown[i]
				line := strconv.Itoa(r.Line)
				if r.Source != "" {
					line = r.Source
				}
				return app.Tr().Body(
					app.Td().Class("num").Text(line),
					app.Td().Text(r.Kernel.Name),
					machineCell(r.Machine.ID, r.Machine.Name),
					app.Td().Class("num").Text(units.FormatCount(r.Params.N)),
					app.Td().Class("num").Text(strconv.FormatInt(r.Params.W, 10)),
					app.Td().Class("num").Text(buckets(r)),
					app.Td().Class("num").Text(units.FormatSeconds(r.Measured)),
					app.Td().Class("num").Text(units.FormatSeconds(r.Predicted)),
					app.Td().Class("num").Text(fmtRatio(r.Measured/r.Predicted)),
					app.If(both, app.Td().Class("num").Text(hierCell(r.Hier)), app.Td().Class("num").Text(hierRatio(r))),
					app.If(unc, app.Td().Class("num").Text(uncCell(r.HierUnc))),
					app.Td().Class("num").Text(fmtPct(fit.RelError(r.Measured, r.Predicted))),
				)
			})),
		)),
	)
}

// machineCell names a row's machine by its id, one short line, with the
// full name on hover: a machine's name runs to seventy characters, and
// every row of a table carries it.
func machineCell(id, name string) app.UI {
	if id == "" {
		return app.Td().Text(name)
	}
	return app.Td().Class("nowrap").Title(name).Text(id)
}

// hierCell shows the hierarchy model's prediction, a dash where it has none.
func hierCell(s float64) string {
	if s <= 0 {
		return "—"
	}
	return units.FormatSeconds(s)
}

// uncCell shows how far the calibration's spreads move a hierarchy
// prediction, a dash where the machine has no spreads.
func uncCell(u float64) string {
	if u <= 0 {
		return "—"
	}
	return fmt.Sprintf("± %.1f%%", 100*u)
}

// hierRatio shows measured over the hierarchy model's prediction.
func hierRatio(r dataRow) string {
	if r.Hier <= 0 {
		return "—"
	}
	return fmtRatio(r.Measured / r.Hier)
}

// fmtRatio shows measured/predicted to three decimals.
func fmtRatio(v float64) string {
	if !finite(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// buckets shows b only for the kernels that read it.
func buckets(r dataRow) string {
	if !hasParam(r.Kernel, "b") {
		return "—"
	}
	return strconv.FormatInt(r.Params.Buckets, 10)
}

// compareOption draws measured against predicted, log-log, one series per
// kernel, with the line where they agree: the model is a lower bound, so
// points should lie on or above it.
func compareOption(rows []dataRow) string {
	byKernel := map[string][]any{}
	var order []string
	lo, hi := 0.0, 0.0
	for _, r := range rows {
		if _, ok := byKernel[r.Kernel.Name]; !ok {
			order = append(order, r.Kernel.Name)
		}
		byKernel[r.Kernel.Name] = append(byKernel[r.Kernel.Name], map[string]any{
			"value": []float64{r.Predicted, r.Measured},
			"name":  fmt.Sprintf("line %d: %s, N = %s", r.Line, r.Machine.Name, units.FormatCount(r.Params.N)),
		})
		for _, v := range []float64{r.Predicted, r.Measured} {
			if lo == 0 || v < lo {
				lo = v
			}
			hi = math.Max(hi, v)
		}
	}
	series := []any{map[string]any{"type": "line", "name": "measured = predicted", "data": [][2]float64{{lo, lo}, {hi, hi}},
		"showSymbol": false, "silent": true, "lineStyle": map[string]any{"type": "dashed", "color": "#888"}, "itemStyle": map[string]any{"color": "#888"}}}
	for _, k := range order {
		series = append(series, map[string]any{"type": "scatter", "name": k, "data": byKernel[k], "symbolSize": 10})
	}
	// The hierarchy model's predictions, where rows have them, as one
	// series of hollow diamonds: x is then that model's prediction.
	var hierPts []any
	for _, r := range rows {
		if r.Hier <= 0 {
			continue
		}
		hierPts = append(hierPts, map[string]any{
			"value": []float64{r.Hier, r.Measured},
			"name":  fmt.Sprintf("line %d: %s, %s, N = %s", r.Line, r.Kernel.Name, r.Machine.Name, units.FormatCount(r.Params.N)),
		})
		lo, hi = math.Min(lo, r.Hier), math.Max(hi, r.Hier)
	}
	series[0].(map[string]any)["data"] = [][2]float64{{lo, lo}, {hi, hi}}
	xName := "predicted (MBRAM)"
	if len(hierPts) > 0 {
		xName = "predicted (MBRAM; ◇ the hierarchy model)"
		series = append(series, map[string]any{"type": "scatter", "name": "hierarchy model, every kernel", "data": hierPts, "symbol": "diamond", "symbolSize": 11,
			"itemStyle": map[string]any{"color": "transparent", "borderColor": "#222", "borderWidth": 1.5}})
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 64, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"xAxis": map[string]any{"type": "log", "name": xName, "nameLocation": "middle", "nameGap": 30,
			// Eight decades in a phone's width: a label that would
			// overlap its neighbour is left out.
			"axisLabel": map[string]any{"formatter": "@seconds", "hideOverlap": true}},
		"yAxis":  map[string]any{"type": "log", "name": "measured", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": series,
	})
}
