package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/superstep"
	"memwall/engine/units"
)

func (p *superstepsPage) Render() app.UI {
	return shell("/supersteps",
		app.H1().Text("Supersteps"),
		app.P().Class("lead").Text("On a shared-memory machine the same reads and writes can cost a hundred times more when they miss the cache and fight over lines. The superstep paper fits two cost functions on the SGI Power Challenge, one for access patterns that use the memory hierarchy best (Good) and one for the worst (Bad); together they bound a superstep's communication time."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			p.renderInputs(),
			p.renderTotal(),
		),
		p.renderSteps(),
		p.renderChart(),
		p.renderFits(),
		p.renderTerms(),
		p.renderShare(),
	)
}

func (p *superstepsPage) field(key, label, hint string, size int) app.UI {
	return textField{ID: "ss-" + key, Label: label, Value: p.form.shown[key], Hint: hint, Err: p.errs[key], OnInput: p.onText(key), Size: size}.UI()
}

func (p *superstepsPage) renderInputs() app.UI {
	t := p.form.text
	algo := strings.TrimSpace(t["algo"])
	var algos []option
	for _, a := range superstep.Algorithms {
		algos = append(algos, option{Value: a.ID, Label: a.Name + " (" + a.Table + ")"})
	}
	typed := t["coef"] == coefTyped
	return app.Section().Class("panel inputs").Aria("label", "Sort and machine").Body(
		app.H2().Text("The sort"),
		selectField("ss-algo", "Algorithm", algo, algos, p.onSelect("algo")),
		app.If(p.errs["algo"] != "", app.P().Class("error").Text(p.errs["algo"])),
		app.Div().Class("row").Body(
			p.field("n", "Elements n", "e.g. 1000000, 8Mi, 2^20", 10),
			p.field("p", "Processors p", "2, 4, 8, 12 with the superstep paper's coefficients", 6),
		),
		app.If(algo == "radix", app.Div().Class("row").Body(
			p.field("b", "Key bits b", "32 in the superstep paper", 4),
			p.field("r", "Radix bits r", "6 in the superstep paper: 2^r counts, ⌈b/r⌉ passes", 4),
		)),
		app.If(algo == "sample", app.Div().Class("row").Body(
			p.field("s", "Sample per processor", "100 in the superstep paper (a sample of 100p)", 6),
		)),
		app.H2().Text("Coefficients"),
		selectField("ss-coef", "Coefficient set", t["coef"], []option{
			{Value: coefPublished, Label: "SGI Power Challenge (the superstep paper, Tables 2 and 4)"},
			{Value: coefTyped, Label: "Typed in"},
		}, p.onSelect("coef")),
		app.If(p.errs["coef"] != "", app.P().ID("ss-coef-err").Class("error").Text(p.errs["coef"])),
		app.Div().Class("row actions").Body(
			app.Label().Class("button").For("ss-coef-file").Text("Load a coefficient file…"),
			app.Input().ID("ss-coef-file").Type("file").Accept(".json,application/json").Class("visually-hidden").OnChange(p.onCoefFile),
			app.Label().Class("button").For("ss-suites-file").Text("Fit measured supersteps…"),
			app.Input().ID("ss-suites-file").Type("file").Accept(".csv,.json,text/csv,application/json").Class("visually-hidden").OnChange(p.onSuitesFile),
		),
		app.P().Class("note").Text("memwall superstep-suites times the superstep paper's experiment suites on your machine (a CSV to fit here); memwall superstep-fit fits them and writes a coefficient file."),
		app.If(p.fileErr != "", app.P().ID("ss-coef-file-err").Class("error").Role("alert").Text(p.fileErr)),
		app.If(p.fileMsg != "", app.P().ID("ss-coef-file-msg").Class("note").Text(p.fileMsg)),
		app.If(typed,
			app.P().Class("note").Text("Microseconds, and microseconds per access, as the superstep paper prints them. Leave the R1 line empty for one Good function over every h."),
			p.field("good", "Good, HrHwM-c, for h <= C (R0)", "L, g_hrc, g_hrm, g_hwc, g_hwm, g_M", 48),
			p.field("good1", "Good, HrHwM-c, for h > C (R1)", "empty: the line above for every h", 48),
			p.field("bad", "Bad, HrHwM", "L, g_hr, g_hw, g_M", 48),
			p.field("C", "Cache size C (words)", "2^19 on the SGI Power Challenge (2 MB of 4-byte integers)", 10),
		),
		app.If(!typed, app.P().Class("note").Text("Good: HrHwM-c = L + g_hrc·h_rc + g_hrm·h_rm + g_hwc·h_wc + g_hwm·h_wm + g_M·M, fitted separately for h <= C (R0) and h > C (R1), C = 2^19 words. Bad: HrHwM = L + g_hr·h_r + g_hw·h_w + g_M·M.")),
		renderGlossary("ss-glossary", glossaryFor("HrHwM-c HrHwM R0 HM HrHw")),
	)
}

func (p *superstepsPage) renderTotal() app.UI {
	o := p.out
	if !o.ok {
		return app.Section().ID("total").Class("panel result").Body(app.P().Class("error").Text("Fix the marked field."))
	}
	pr := o.pred
	a := pr.Plan.Algorithm
	var warnings []string
	warnings = append(warnings, pr.Warnings...)
	return app.Section().ID("total").Class("panel result").Aria("live", "polite").Aria("label", "Total").Body(
		app.P().Class("total").Body(
			app.Text("Communication between "),
			app.Strong().ID("total-good").Text(units.FormatSeconds(pr.Good)),
			app.Text(" and "),
			app.Strong().ID("total-bad").Text(units.FormatSeconds(pr.Bad)),
		),
		app.If(p.stale, app.P().Class("stale").Text("Showing the last valid inputs: fix the marked field.")),
		app.P().ID("total-what").Text(fmt.Sprintf("%s (%s) of n = %d elements on p = %d processors; coefficients: %s.", a.Name, a.Table, pr.Plan.N, pr.Plan.P, pr.Set.Name)),
		app.If(len(pr.Steps) > 0 && pr.Steps[0].Step.Repeat > 1,
			app.P().Class("note").Text(fmt.Sprintf("Each superstep runs %d times: ⌈b/r⌉ = ⌈%d/%d⌉ counting-sort passes. The total counts every run.", pr.Steps[0].Step.Repeat, pr.Plan.Params.KeyBits, pr.Plan.Params.RadixBits)),
		),
		p.renderTotalMeasured(),
		app.If(len(warnings) > 0, app.Ul().ID("warnings").Class("warnings").Body(
			app.Range(warnings).Slice(func(i int) app.UI { return app.Li().Text(warnings[i]) }),
		)),
		app.P().Class("note").Text("Communication only: the superstep paper adds the measured local computation to compare with a whole run (section 5.2). The two bounds are fitted predictions, so a real superstep may stray a few percent outside them."),
	)
}

func (p *superstepsPage) renderTotalMeasured() app.UI {
	o := p.out
	l := o.located.Total
	body := []app.UI{
		p.field("tmt", "Measured time of the whole sort", "e.g. 85ms; empty: the sum of the supersteps' times when every one is given", 10),
	}
	if l != nil {
		what := "Measured"
		if o.located.TotalSummed {
			what = "Sum of the measured supersteps (each times its runs)"
		}
		body = append(body, app.P().ID("total-measured").Body(
			app.Text(what+": "+units.FormatSeconds(l.Measured)+"; Loc = "),
			app.Strong().ID("total-loc").Text(metric(l.Loc, l.LocErr)),
			app.Text(", M/G = "),
			app.Strong().ID("total-mg").Text(metric(l.MG, l.MGErr)),
		))
		for _, err := range []error{l.LocErr, l.MGErr} {
			if err != nil {
				body = append(body, app.P().Class("note").Text(err.Error()))
			}
		}
	}
	return app.Div().ID("measured-total").Body(body...)
}

// metric shows Loc or M/G, or a dash when it is undefined.
func metric(v float64, err error) string {
	if err != nil || !finite(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func (p *superstepsPage) renderSteps() app.UI {
	o := p.out
	if !o.ok {
		return app.Section().ID("steps")
	}
	pr := o.pred
	head := []string{"SS", "superstep (seed's h_r; h_w; M)", "runs", "h_r", "h_w", "M", "region", "t_g (Good)", "t_b (Bad)", "measured t_m", "Loc", "M/G"}
	return app.Section().ID("steps").Class("panel").Aria("label", "Supersteps").Body(
		app.H2().Text("Supersteps"),
		app.Div().Class("table-wrap").Body(app.Table().ID("steps-table").Body(
			app.THead().Body(app.Tr().Body(app.Range(head).Slice(func(i int) app.UI { return app.Th().Scope("col").Text(head[i]) }))),
			app.TBody().Body(app.Range(pr.Steps).Slice(func(i int) app.UI {
				s := pr.Steps[i]
				c := s.Step.Counts
				id := strconv.Itoa(s.Step.Number)
				l, measured := o.located.Steps[i]
				return app.Tr().ID("step-"+id).Body(
					app.Td().Class("num").Text(id),
					app.Th().Scope("row").Body(app.Text(s.Step.Name), app.Br(), app.Small().Class("formula").Text(s.Step.Formula)),
					app.Td().Class("num").Text(strconv.Itoa(s.Step.Repeat)),
					app.Td().ID("hr-"+id).Class("num").Text(strconv.FormatFloat(c.Hr, 'f', 0, 64)),
					app.Td().ID("hw-"+id).Class("num").Text(strconv.FormatFloat(c.Hw, 'f', 0, 64)),
					app.Td().ID("m-"+id).Class("num").Text(strconv.FormatFloat(c.M, 'f', 0, 64)),
					app.Td().Text(s.Interval.Region.String()),
					app.Td().ID("good-"+id).Class("num").Text(units.FormatSeconds(s.Interval.Good)),
					app.Td().ID("bad-"+id).Class("num").Text(units.FormatSeconds(s.Interval.Bad)),
					app.Td().Body(p.measuredInput(i+1)),
					app.Td().ID("loc-"+id).Class("num").Text(map[bool]string{true: metric(l.Loc, l.LocErr), false: ""}[measured]),
					app.Td().ID("mg-"+id).Class("num").Text(map[bool]string{true: metric(l.MG, l.MGErr), false: ""}[measured]),
				)
			})),
			app.TFoot().Body(app.Tr().Body(
				app.Td(), app.Th().Scope("row").Text("total"), app.Td(), app.Td(), app.Td(), app.Td(), app.Td(),
				app.Td().Class("num").Text(units.FormatSeconds(pr.Good)),
				app.Td().Class("num").Text(units.FormatSeconds(pr.Bad)),
				app.Td(), app.Td(), app.Td(),
			)),
		)),
		p.renderStepNotes(),
		app.P().Class("note").Text("h_r and h_w: the most global reads and writes of one processor; M: all processors' reads and writes. Loc = 1 − (t_m − t_g)/(t_b − t_g) is 1 at the Good bound and 0 at the Bad one; M/G = t_m/t_g (the superstep paper, section 5.2). Measured times are of one run of the superstep."),
	)
}

// measuredInput is the measured-time field of superstep i inside the
// table: named for screen readers by aria-label rather than a visible
// label, its message under it.
func (p *superstepsPage) measuredInput(i int) app.UI {
	key := tmKey(i)
	id, errID := "ss-"+key, "ss-"+key+"-err"
	in := app.Input().ID(id).Type("text").Value(p.form.shown[key]).Size(7).
		AutoComplete(false).Spellcheck(false).Attr("autocapitalize", "off").
		Aria("label", "Measured time of superstep "+strconv.Itoa(i)).
		Attr("placeholder", "e.g. 3ms").OnInput(p.onText(key))
	msg := p.errs[key]
	if msg != "" {
		in = in.Aria("invalid", "true").Aria("describedby", errID).Class("invalid")
	}
	return app.Div().Body(in, app.If(msg != "", app.P().ID(errID).Class("error").Aria("live", "polite").Text(msg)))
}

// renderStepNotes says why a superstep's Loc or M/G is undefined.
func (p *superstepsPage) renderStepNotes() app.UI {
	var notes []string
	for i, s := range p.out.pred.Steps {
		l, ok := p.out.located.Steps[i]
		if !ok {
			continue
		}
		for _, err := range []error{l.LocErr, l.MGErr} {
			if err != nil {
				notes = append(notes, fmt.Sprintf("Superstep %d: %v", s.Step.Number, err))
			}
		}
	}
	if len(notes) == 0 {
		return app.Text("")
	}
	return app.Ul().ID("step-notes").Class("warnings").Body(app.Range(notes).Slice(func(i int) app.UI { return app.Li().Text(notes[i]) }))
}

func (p *superstepsPage) renderChart() app.UI {
	o := p.out
	if !o.ok {
		return app.Section().ID("interval")
	}
	return app.Section().ID("interval").Class("panel").Aria("label", "Interval chart").Body(
		app.H2().Text("Interval per superstep"),
		&chart{ID: "interval-chart", Label: "Good and Bad predicted communication time of each superstep, on a logarithmic time axis, with the measured times", Option: o.chart},
		app.P().Class("note").Text("Each band spans a superstep's interval, one run, on a logarithmic axis: from the Good prediction t_g (blue tick, lower bound) to the Bad prediction t_b (red tick, upper bound); diamonds are measured times. A Good prediction at or below zero (the fitted constant L outweighs a tiny superstep) has no band."),
	)
}

// intervalOption draws each superstep's interval as a thick vertical
// segment from t_g to t_b on a log time axis, with ticks at both ends and
// the measured times as diamonds. (Bars on a log axis start at 1, which is
// above every time in seconds, so the interval is drawn as a segment.)
func intervalOption(pr superstep.Prediction, loc superstep.Located) string {
	var cats []string
	var good, bad, meas []any
	var series []any
	positive := func(v float64) any {
		if v > 0 && finite(v) {
			return v
		}
		return nil
	}
	for i, s := range pr.Steps {
		cat := fmt.Sprintf("%d %s", s.Step.Number, s.Step.Name)
		cats = append(cats, cat)
		g, b := positive(s.Interval.Good), positive(s.Interval.Bad)
		good = append(good, g)
		bad = append(bad, b)
		if g != nil && b != nil {
			series = append(series, map[string]any{
				"type": "line", "name": "interval [t_g, t_b]", "data": []any{[]any{cat, g}, []any{cat, b}},
				"showSymbol": false, "silent": true, "z": 1,
				"lineStyle": map[string]any{"width": 22, "cap": "butt", "color": "#f2c48d"},
				"itemStyle": map[string]any{"color": "#f2c48d"},
			})
		}
		if l, ok := loc.Steps[i]; ok {
			meas = append(meas, positive(l.Measured))
		} else {
			meas = append(meas, nil)
		}
	}
	tick := func(name, color string, data []any) map[string]any {
		return map[string]any{"type": "scatter", "name": name, "data": data, "symbol": "rect", "symbolSize": []int{34, 4}, "itemStyle": map[string]any{"color": color}, "z": 2}
	}
	series = append(series, tick("Good t_g (lower bound)", "#2b7bb9", good), tick("Bad t_b (upper bound)", "#c0392b", bad))
	if len(loc.Steps) > 0 {
		series = append(series, map[string]any{"type": "scatter", "name": "measured t_m", "data": meas, "symbol": "diamond", "symbolSize": 14, "itemStyle": map[string]any{"color": "#222"}, "z": 3})
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 24, "top": 48, "bottom": 16, "containLabel": true},
		"legend":    map[string]any{"top": 4},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "category", "data": cats, "axisLabel": map[string]any{"interval": 0, "rotate": 20}},
		"yAxis":     map[string]any{"type": "log", "name": "time per run", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series":    series,
	})
}

// renderTerms lists each prediction's terms, so the reader sees which
// access dominates.
func (p *superstepsPage) renderTerms() app.UI {
	o := p.out
	if !o.ok {
		return app.Section().ID("terms")
	}
	steps := o.pred.Steps
	terms := func(ts []superstep.Term) string {
		var parts []string
		for _, t := range ts {
			if t.Column == "1" {
				parts = append(parts, fmt.Sprintf("L = %s µs", fmtNum(t.Coef)))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s·%s = %s·%s = %s", t.Coefficient, t.Column, fmtNum(t.Coef), fmtNum(t.Value), units.FormatSeconds(t.Micros*1e-6)))
		}
		return strings.Join(parts, "; ")
	}
	return app.Section().ID("terms").Class("panel").Aria("label", "Terms").Body(
		app.Details().Body(
			app.Summary().Text("Terms of each prediction"),
			app.Ul().Body(app.Range(steps).Slice(func(i int) app.UI {
				s := steps[i]
				return app.Li().Body(
					app.Strong().Text(fmt.Sprintf("%d %s. ", s.Step.Number, s.Step.Name)),
					app.Text(fmt.Sprintf("Good (%s): %s. Bad: %s.", s.Interval.Region, terms(s.Interval.GoodTerms), terms(s.Interval.BadTerms))),
				)
			})),
		),
	)
}

func (p *superstepsPage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.If(p.share != "",
			linkRow("ss-link", "ss-copy", "Link to this page's inputs", p.share, p.onCopy, downloadButton("ss-download", p.onDownload)),
		),
		app.If(p.shareErr != "", app.P().Class("error").Text(p.shareErr)),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link holds every input after the #, so it opens with the same numbers anywhere, also offline."),
	)
}

// renderFits shows the cost functions fitted to a suites file with their
// errors on the suites they were not fitted on, as the superstep paper's Tables 5–8.
func (p *superstepsPage) renderFits() app.UI {
	if p.fits == nil {
		return nil
	}
	var rows []app.UI
	for _, fam := range []struct {
		name  string
		cells []superstep.Fitted
		spec  superstep.FitSpec
	}{{"Good", p.fits.Good, p.fits.GoodSpec}, {"Bad", p.fits.Bad, p.fits.BadSpec}} {
		for _, c := range fam.cells {
			id := fmt.Sprintf("fit-%s-%s-%d-%s", strings.ToLower(fam.name), c.Function, c.P, c.Region)
			tr := app.Tr().ID(id)
			cells := []app.UI{app.Td().Text(fam.name), app.Td().Text(strconv.Itoa(c.P)), app.Td().Text(c.Function.String()), app.Td().Text(c.Region.String()), app.Td().Class("num").Text(strconv.Itoa(c.FitRows))}
			if c.Err != nil {
				cells = append(cells, app.Td().ColSpan(3).Text("not fitted: "+c.Err.Error()))
				rows = append(rows, tr.Body(cells...))
				continue
			}
			var errs []string
			for _, v := range c.Validation {
				if v.N > 0 {
					errs = append(errs, fmt.Sprintf("Suite %d: %.1f%% / %.1f%%", v.Suite, 100*v.Mean, 100*v.Max))
				}
			}
			var coef []string
			for _, col := range append([]string{"1"}, c.Function.Columns()...) {
				coef = append(coef, fmt.Sprintf("%s=%.4g", superstep.CoefficientName(col), c.Coef.Get(col)))
			}
			cells = append(cells, app.Td().Text(fmt.Sprintf("Suite %d", fam.spec.FitSuite)), app.Td().Class("errs").Text(strings.Join(errs, "; ")), app.Td().Class("coef").Text(strings.Join(coef, ", ")))
			rows = append(rows, tr.Body(cells...))
		}
	}
	return app.Section().ID("fits").Class("panel").Aria("label", "Fitted cost functions").Body(
		app.H2().Text("Cost functions fitted to "+p.fitsName),
		app.P().Class("note").Text("As the superstep paper's section 4.2: the Good family fitted on Suite 1 (h <= C and h > C apart), the Bad family on Suite 2, each judged by the average and maximum relative error on the suites it was not fitted on (its Tables 5–8). The interval above uses HrHwM-c and HrHwM."),
		app.Div().Class("table-wrap").Body(app.Table().ID("fit-table").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("family"), app.Th().Scope("col").Text("p"), app.Th().Scope("col").Text("function"),
				app.Th().Scope("col").Text("region"), app.Th().Scope("col").Text("rows"), app.Th().Scope("col").Text("fitted on"),
				app.Th().Scope("col").Text("average / maximum error"), app.Th().Scope("col").Text("coefficients (µs)"),
			)),
			app.TBody().Body(rows...),
		)),
	)
}
