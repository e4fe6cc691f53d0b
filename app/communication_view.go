package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/numl"
	"memwall/engine/units"
)

func (p *communicationPage) Render() app.UI {
	return shell("/communication",
		app.H1().Text("Communication"),
		app.P().Class("lead").Text("A column of a row-major array costs more to send than a row of the same bytes: each of its elements drags a whole memory line through the cache. The lines-touched paper adds u, the number of distinct memory lines a message touches, to the usual per-message and per-byte costs."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			p.renderShapeInputs(),
			p.renderLines(),
		),
		p.renderPicture(),
		p.renderFit(),
		p.renderConv(),
		p.renderShare(),
	)
}

func (p *communicationPage) field(key, label, hint string) app.UI {
	return textField{ID: "comm-" + key, Label: label, Value: p.form.shown[key], Hint: hint, Err: p.errs[key], OnInput: p.onText(key), Size: 10}.UI()
}

func (p *communicationPage) renderShapeInputs() app.UI {
	cols := strings.TrimSpace(p.form.text["kind"]) == "columns"
	return app.Section().Class("panel inputs").Aria("label", "Message").Body(
		app.H2().Text("The message"),
		selectField("comm-kind", "What is sent", p.form.text["kind"], []option{
			{Value: "columns", Label: "the k leftmost columns"},
			{Value: "rows", Label: "k whole rows"},
		}, p.onKind),
		app.If(p.errs["kind"] != "", app.P().Class("error").Text(p.errs["kind"])),
		app.Div().Class("row").Body(
			p.field("W", "Row width W (bytes)", "e.g. 4000, 4KiB"),
			p.field("k", "k ("+map[bool]string{true: "columns", false: "rows"}[cols]+")", "1, 2, 200"),
			app.If(cols, p.field("w", "Element size w (bytes)", "4 for int32")),
			app.If(cols, p.field("r", "Rows r of the array", "e.g. 1000, 2^10")),
		),
		app.Div().Class("row").Body(
			p.field("L", "Line size L (bytes)", "64, 128"),
			p.field("o", "Offset o of the first byte", "0 .. L−1"),
		),
	)
}

func (p *communicationPage) renderLines() app.UI {
	o := p.out
	if !o.in.shapeOK {
		return app.Section().ID("lines").Class("panel result").Body(app.P().Class("error").Text("Fix the marked field."))
	}
	s := o.in.shape
	colsKind := s.Kind == numl.Columns
	eqs := "3, 4"
	if colsKind {
		eqs = "5, 6"
	}
	rows := []struct{ id, label, value string }{
		{"n", "Bytes sent, n", units.FormatCount(s.Bytes())},
		{"u-min", "Fewest over offsets", fmt.Sprintf("%d (o = %d)", o.span.Min, o.span.MinOffset)},
		{"u-max", "Most over offsets", fmt.Sprintf("%d (o = %d)", o.span.Max, o.span.MaxOffset)},
		{"u-mean", "Mean over offsets", units.FormatNumber(o.span.Mean)},
		{"u-paper", "The lines-touched paper's bounds (eqs. " + eqs + ")", fmt.Sprintf("%d .. %d", o.paper.Lower, o.paper.Upper)},
	}
	if colsKind {
		rows = append(rows, struct{ id, label, value string }{"period", "gcd(W, L); row starts repeat every", fmt.Sprintf("%d; %d rows", o.closed.G, o.closed.P)})
		cf := "do not apply"
		if o.closed.Applies {
			cf = fmt.Sprintf("u_min = %d, u_max = %d", o.closed.Min, o.closed.Max)
		}
		rows = append(rows, struct{ id, label, value string }{"closed", "Closed forms (whole periods, no shared lines)", cf})
	}
	return app.Section().ID("lines").Class("panel result").Aria("live", "polite").Aria("label", "Lines touched").Body(
		app.P().Class("total").Body(
			app.Text("u = "),
			app.Strong().ID("u").Text(fmt.Sprint(o.u)),
			app.Text(map[bool]string{true: " line touched", false: " lines touched"}[o.u == 1]),
		),
		app.If(p.stale, app.P().Class("stale").Text("Showing the last valid inputs: fix the marked field.")),
		app.Div().Class("table-wrap").Body(app.Table().ID("lines-table").Body(
			app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
				return app.Tr().Body(app.Th().Scope("row").Text(rows[i].label), app.Td().ID("v-"+rows[i].id).Class("num").Text(rows[i].value))
			})),
		)),
		app.If(colsKind && !o.closed.Applies, app.P().ID("closed-why").Class("note").Text("The closed forms do not apply: "+o.closed.Why+".")),
		app.If(!colsKind, app.P().Class("note").Text("Whole rows are one contiguous block of n = kW bytes: from offset o it covers floor((o + n − 1)/L) + 1 lines, ceil(n/L) on a line boundary and at most one more off it (eqs. 3, 4).")),
		app.If(colsKind, app.P().Class("note").Text("Exact for the offset given: the rows' start offsets repeat every L/gcd(W, L) rows (the lines-touched paper, Theorem 1), so one period is summed, and lines shared by consecutive rows (possible when W − kw < L − 1) are counted once. The lines-touched paper's bounds assume no shared lines.")),
	)
}

// renderPicture draws the array's memory as cells, one per line, in order
// of address: touched lines coloured, with a darker bar for the share of
// their bytes the message carries.
func (p *communicationPage) renderPicture() app.UI {
	o := p.out
	if !o.in.shapeOK || len(o.use) == 0 {
		return app.Section().ID("picture").Class("panel")
	}
	s := o.in.shape
	perRow := int64(32)
	if s.W%s.Line == 0 && s.W/s.Line >= 1 && s.W/s.Line <= 64 {
		perRow = s.W / s.Line // one array row per grid row
	}
	shown := int64(len(o.use))
	var touched int64
	for _, lu := range o.use {
		if lu.Used > 0 {
			touched++
		}
	}
	caption := fmt.Sprintf("The first %d of the array's %d lines, %d per row of cells; %d of the shown lines are touched.", shown, o.total, perRow, touched)
	if shown == o.total {
		caption = fmt.Sprintf("All %d lines from the first byte to the last one sent, %d per row of cells; %d are touched.", o.total, perRow, touched)
	}
	return app.Section().ID("picture").Class("panel").Aria("label", "Lines touched, drawn").Body(
		app.H2().Text("The lines, drawn"),
		app.Div().Class("table-wrap").Body(app.Raw(linesSVG(o.use, perRow, s.Line))),
		app.P().Class("note").Text(caption+" A cell is one line of "+fmt.Sprint(s.Line)+" bytes: orange when the message touches it, the dark bar the share of its bytes that are sent; grey cells are loaded by nobody."),
	)
}

func linesSVG(use []numl.LineUse, perRow, line int64) string {
	const cell, gap = 14, 2
	rows := (int64(len(use)) + perRow - 1) / perRow
	w, h := perRow*(cell+gap), rows*(cell+gap)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="lines-svg" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="memory lines; touched ones coloured">`, w, h, w, h)
	for i, lu := range use {
		x, y := int64(i)%perRow*(cell+gap), int64(i)/perRow*(cell+gap)
		fill := "#e4e4ea"
		if lu.Used > 0 {
			fill = "#f6b26b"
		}
		fmt.Fprintf(&b, `<g class="%s"><title>line %d: %d of %d bytes sent</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`,
			map[bool]string{true: "hit", false: "miss"}[lu.Used > 0], lu.Line, lu.Used, line, x, y, cell, cell, fill)
		if lu.Used > 0 {
			bar := max(1, lu.Used*cell/line)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#b45309"/>`, x, y+cell-bar, cell, bar)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func (p *communicationPage) renderConv() app.UI {
	o := p.out
	var body []app.UI
	body = append(body,
		app.H2().Text("Which convolution program is faster?"),
		app.P().Class("note").Text("The lines-touched paper, section 7: the uniform convolution of an N×N image with a b×b box. Conv-Shift (Figure 19) shifts the image 2(b − 1) times by one column or row; Conv-Scan (Figure 18) does two parallel-prefix scans and three shifts by b. Costs per processor are summed over the programs' statements: messages, bytes and lines touched for each shift and scan step, arithmetic, loads/stores and lines for each array statement (section 7.1)."),
		app.Div().Class("row").Body(
			p.field("N", "Image side N (pixels)", "e.g. 1024"),
			p.field("px", "Bytes per pixel", "4"),
			p.field("pr", "Mesh rows", "e.g. 4"),
			p.field("pc", "Mesh columns", "e.g. 4"),
			p.field("bmax", "Largest box size b", "e.g. 10"),
		),
		textField{ID: "comm-std", Label: "Standard model (S1) coefficients", Value: p.form.shown["std"], Hint: "alpha per message, beta per byte, delta per operation, beta_mem per load/store", Err: p.errs["std"], OnInput: p.onText("std"), Size: 70}.UI(),
		textField{ID: "comm-m1", Label: "M1 coefficients (with lines touched)", Value: p.form.shown["m1"], Hint: "adds gamma per line a message touches, gamma_mem per line a statement touches", Err: p.errs["m1"], OnInput: p.onText("m1"), Size: 70}.UI(),
		app.Div().Class("row actions").Body(
			app.Button().ID("comm-example").Type("button").Text("Example coefficients").OnClick(p.onExample),
		),
		app.P().ID("example-note").Class("note").Text("The example coefficients are illustrative, not measured: the lines-touched paper prints none. M1's are round numbers: 10 µs per message, 3.3 ns per byte, 100 ns per line a message touches. The standard ones describe the same machine: S1 fitted by least squares to the times M1 gives rows and line-wide columns (messages that fill every line they touch, u = n/L, as a benchmark of contiguous buffers sends), so α = 10 µs and β = 3.3 ns + 100 ns/64 = 4.8625 ns, and a statement streaming 4-byte elements costs β_mem = 1 ns + 30 ns/16 per load or store. The two agree on such messages and part on a column narrower than a line, which touches a line per row: on the default 8×32 mesh over a 1024×1024 image the standard model picks Conv-Scan at b = 3, where M1 still prefers Conv-Shift. Fit measured coefficients above and use them here."),
	)
	if !o.in.convOK {
		body = append(body, app.P().Class("error").Text("Fix the marked field."))
		return app.Section().ID("conv").Class("panel").Body(body...)
	}
	cross := func(cv numl.Curve) string {
		if cv.Found {
			return fmt.Sprintf("b = %d", cv.Crossover)
		}
		return fmt.Sprintf("none up to b = %d", o.in.bmax)
	}
	body = append(body,
		app.If(o.convEr != "", app.P().Class("error").Text(o.convEr)),
		app.P().Class("total").Body(
			app.Text("Conv-Scan becomes faster at "),
			app.Strong().ID("cross-m1").Text(cross(o.m1)),
			app.Text(" under M1, "),
			app.Strong().ID("cross-std").Text(cross(o.std)),
			app.Text(" under the standard model."),
		),
		app.If(p.stale, app.P().Class("stale").Text("Showing the last valid inputs: fix the marked field.")),
		&chart{ID: "conv-chart", Label: "Predicted time of Conv-Shift and Conv-Scan against box size b, standard model and M1", Option: o.chart, Height: 340},
		app.Div().Class("table-wrap").Body(app.Table().ID("conv-table").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("b"),
				app.Th().Text("Conv-Shift, S1"), app.Th().Text("Conv-Scan, S1"), app.Th().Text("ratio, S1"),
				app.Th().Text("Conv-Shift, M1"), app.Th().Text("Conv-Scan, M1"), app.Th().Text("ratio, M1"),
			)),
			app.TBody().Body(app.Range(o.m1.Points).Slice(func(i int) app.UI {
				a, m := o.std.Points[i], o.m1.Points[i]
				return app.Tr().Body(
					app.Td().Class("num").Text(fmt.Sprint(m.B)),
					app.Td().Class("num").Text(units.FormatSeconds(a.Shift)), app.Td().Class("num").Text(units.FormatSeconds(a.Scan)), app.Td().Class("num").Text(fmtNum(a.Ratio)),
					app.Td().Class("num").Text(units.FormatSeconds(m.Shift)), app.Td().Class("num").Text(units.FormatSeconds(m.Scan)), app.Td().Class("num").Text(fmtNum(m.Ratio)),
				)
			})),
		)),
		app.P().Class("note").Text("Ratio is Conv-Shift/Conv-Scan, as the lines-touched paper's Figure 14 plots it: below 1 Conv-Shift is faster. The paper finds that the crossover depends on the machine (b = 7 on the Sun E5000) and that the standard model chooses the inferior program for some b, where the model with lines touched does not."),
	)
	return app.Section().ID("conv").Class("panel").Aria("label", "Convolution").Body(body...)
}

// convOption draws both programs' time against b under both models, the
// crossovers marked.
func convOption(std, m1 numl.Curve) string {
	line := func(name string, cv numl.Curve, scan bool, dashed bool, mark bool) map[string]any {
		var data [][2]float64
		for _, pt := range cv.Points {
			v := pt.Shift
			if scan {
				v = pt.Scan
			}
			if finite(v) {
				data = append(data, [2]float64{float64(pt.B), v})
			}
		}
		s := map[string]any{"type": "line", "name": name, "data": data, "showSymbol": true, "symbolSize": 6}
		if dashed {
			s["lineStyle"] = map[string]any{"type": "dashed", "width": 2}
		} else {
			s["lineStyle"] = map[string]any{"width": 3}
		}
		if mark && cv.Found {
			label := "crossover b = " + fmt.Sprint(cv.Crossover)
			if dashed {
				label += " (S1)"
			} else {
				label += " (M1)"
			}
			s["markLine"] = map[string]any{
				"symbol": "none", "silent": true,
				"label":     map[string]any{"formatter": label, "position": "insideEndTop"},
				"lineStyle": map[string]any{"type": map[bool]string{true: "dotted", false: "solid"}[dashed], "color": "#555"},
				"data":      []any{map[string]any{"xAxis": cv.Crossover}},
			}
		}
		return s
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 64, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "value", "name": "box size b", "nameLocation": "middle", "nameGap": 30, "minInterval": 1, "min": 1},
		"yAxis":     map[string]any{"type": "value", "name": "predicted time", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": []any{
			line("Conv-Shift, M1", m1, false, false, true),
			line("Conv-Scan, M1", m1, true, false, false),
			line("Conv-Shift, standard", std, false, true, true),
			line("Conv-Scan, standard", std, true, true, false),
		},
	})
}

func (p *communicationPage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.If(p.share != "",
			linkRow("comm-link", "comm-copy", "Link to this page's inputs", p.share, p.onCopy, downloadButton("comm-download", p.onDownload)),
		),
		app.If(p.shareErr != "", app.P().Class("error").Text(p.shareErr)),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link holds every input after the #, so it opens with the same numbers anywhere, also offline. The file holds the same inputs; memwall numl lines and memwall numl conv read either with --link or --scenario."),
	)
}
