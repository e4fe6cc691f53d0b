package app

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/engine/units"
	"memwall/presets"
)

// speedupOutcome is everything the Speedup page shows for one set of inputs.
type speedupOutcome struct {
	res      *fit.Result
	curve    *speedup.NCurve
	curveMsg string       // why there is no speedup chart, or what it lacks
	multi    [][2]float64 // Multi's estimate (Table 5) at N: (P, S)
	theo     [][2]float64 // the simple theoretic model of Tables 3 and 4: (P, S)
	speedOpt string
	fitOpt   string
	seconds  bool // the measured column is a time in seconds
	err      string
	// published is the ready model whose terms are being fitted, for its
	// printed coefficients.
	published *presets.FittedModel
	millis    float64
	hidden    int // points a log-log chart cannot show (not positive)
}

// maxShownRows bounds the prediction table: the chart shows every point,
// the table the first rows, the CSV download all of them.
const maxShownRows = 300

func computeSpeedup(p *speedupPage) (o speedupOutcome) {
	start := time.Now()
	defer func() { o.millis = float64(time.Since(start).Microseconds()) / 1e3 }()
	frame := p.frame()
	if p.yCol == "" {
		o.err = "Choose the measured column."
		return o
	}
	if c := p.tbl.Col(p.yCol); c != nil {
		o.seconds = c.Kind == dataset.Duration
	}
	var fixed map[string]float64
	if m, ok := presets.FittedModelByID(p.model); ok {
		fixed = m.Fixed
		if sameTerms(m.Terms, p.spec.terms) {
			o.published = &m
		}
	}
	if p.curvesPossible() {
		a, err := speedup.Analyze(speedup.Spec{
			Data: frame, T: p.yCol, Terms: p.spec.terms, Train: p.spec.cond, Weighting: p.weighting,
			Ns: []float64{p.spec.n}, Ps: procCounts(p.spec.pFrom, p.spec.pTo), Fixed: fixed, Work: p.spec.work,
		})
		if err == nil {
			o.res = a.Fit
			c := a.Curves[0]
			o.curve = &c
		} else {
			o.curveMsg = "No speedup curve: " + err.Error() + "."
		}
	} else if defaultsFor(p.data, p.tbl).Speedups {
		o.curveMsg = "Table 5 holds Multi's speedups, not running times, so no speedup curve is derived from a fit of it; choose Table 6 to see Table 5 beside the fitted curve."
	} else {
		o.curveMsg = "The speedup chart needs a problem-size column (N) and a processor column (P); choose them under Data."
	}
	if o.res == nil {
		res, err := fit.Fit(frame, fit.Spec{Y: p.yCol, Terms: p.spec.terms, Train: p.spec.cond, Weighting: p.weighting})
		if err != nil {
			o.err = p.fitError(err)
			return o
		}
		o.res = res
	}
	if o.curve != nil && p.data == table6 {
		o.multi = seriesAt(table5, "N", p.spec.n, "P", "S")
		o.theo = theoretic(p.spec.n, o.curve.Predicted.Points)
	}
	o.fitOpt, o.hidden = fitOption(o.res, o.seconds)
	if o.curve != nil {
		o.speedOpt = speedOption(o.curve, o.multi, o.theo)
	}
	return o
}

// fitError puts the file's line number into a row's error.
func (p *speedupPage) fitError(err error) string {
	var re *fit.RowError
	if errors.As(err, &re) && p.tbl != nil && re.Row >= 0 && re.Row < len(p.tbl.Lines) {
		return fmt.Sprintf("Line %d: %s", p.tbl.Lines[re.Row], re.Msg)
	}
	msg := err.Error()
	if errors.Is(err, fit.ErrTooFewPoints) || errors.Is(err, fit.ErrRankDeficient) {
		return "The fit was refused: " + msg + "."
	}
	return "The fit failed: " + msg + "."
}

func sameTerms(text string, terms []fit.Term) bool {
	ts, err := fit.ParseTerms(text)
	if err != nil || len(ts) != len(terms) {
		return false
	}
	for i := range ts {
		if ts[i].Canonical() != terms[i].Canonical() {
			return false
		}
	}
	return true
}

// theoretic is Chittor's thesis's simple theoretic model (section 5.2.1): Seq(P)
// from Table 3 and Par(N) from Table 4, at the P of the predicted curve.
func theoretic(n float64, pts []speedup.Point) [][2]float64 {
	seq := seriesAt(table3, "", 0, "P", "seq")
	par := seriesAt(table4, "N", n, "N", "par")
	if len(par) == 0 {
		return nil
	}
	seqP, seqT := make([]float64, len(seq)), make([]float64, len(seq))
	for i, s := range seq {
		seqP[i], seqT[i] = s[0], s[1]
	}
	ps := make([]float64, len(pts))
	for i, pt := range pts {
		ps[i] = pt.P
	}
	var out [][2]float64
	for _, pt := range speedup.TheoreticCurve(seqP, seqT, par[0][1], ps) {
		out = append(out, [2]float64{pt.P, pt.S})
	}
	return out
}

// speedOption draws speedup against P, log-log, with the roll-off point
// marked, as Chittor's thesis's figures 7 to 10 compare predicted, measured and
// Multi-estimated speedup.
func speedOption(c *speedup.NCurve, multi, theo [][2]float64) string {
	var pred, amd, gus, sun [][2]float64
	for i, pt := range c.Predicted.Points {
		if pt.S > 0 && finite(pt.S) {
			pred = append(pred, [2]float64{pt.P, pt.S})
		}
		if i < len(c.Amdahl) {
			amd = append(amd, [2]float64{pt.P, c.Amdahl[i]})
		}
		if i < len(c.Gustafson) {
			gus = append(gus, [2]float64{pt.P, c.Gustafson[i]})
		}
		if i < len(c.SunNi) && c.SunNi[i] > 0 {
			sun = append(sun, [2]float64{pt.P, c.SunNi[i]})
		}
	}
	line := func(name string, data [][2]float64, width int, dash string) map[string]any {
		s := map[string]any{"type": "line", "name": name, "data": data, "showSymbol": true, "symbolSize": 5, "lineStyle": map[string]any{"width": width}}
		if dash != "" {
			s["lineStyle"] = map[string]any{"width": width, "type": dash}
			s["showSymbol"] = false
		}
		return s
	}
	p := line("Predicted (fitted model)", pred, 3, "")
	r := c.Predicted.RollOff
	label := "roll-off P = " + fmtNum(r.P)
	if !r.Found {
		label = "still rising at P = " + fmtNum(r.P)
	}
	p["markLine"] = map[string]any{
		"symbol": "none", "silent": true,
		"label": map[string]any{"formatter": label, "position": "insideEndTop"},
		"data":  []any{map[string]any{"xAxis": r.P}},
	}
	series := []any{p}
	if len(c.Measured.Points) > 0 {
		var m [][2]float64
		for _, pt := range c.Measured.Points {
			if pt.S > 0 {
				m = append(m, [2]float64{pt.P, pt.S})
			}
		}
		series = append(series, map[string]any{"type": "scatter", "name": "Measured", "data": m, "symbolSize": 12, "symbol": "diamond", "z": 5})
	}
	if len(multi) > 0 {
		series = append(series, map[string]any{"type": "scatter", "name": "Multi's estimate (Table 5)", "data": multi, "symbolSize": 9, "symbol": "triangle"})
	}
	if len(theo) > 0 {
		series = append(series, line("Simple theoretic model (Tables 3, 4)", theo, 2, "dotted"))
	}
	series = append(series, line("Amdahl", amd, 2, "dashed"), line("Gustafson", gus, 2, "dashed"))
	if len(sun) > 0 {
		series = append(series, line("Sun–Ni (memory-bounded)", sun, 2, "dashed"))
	}
	last := 2.0
	if n := len(c.Predicted.Points); n > 0 {
		last = c.Predicted.Points[n-1].P
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 64, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "axis"},
		"xAxis": map[string]any{"type": "log", "logBase": 2, "name": "P, processors", "nameLocation": "middle", "nameGap": 30,
			"min": 1, "max": last, "splitNumber": 12},
		// The axis name starts at the axis and runs right: centred on
		// the axis (ECharts' default) its left half fell off the chart.
		"yAxis": map[string]any{"type": "log", "logBase": 2, "name": "speedup S(N, P)", "splitNumber": 12,
			"nameTextStyle": map[string]any{"align": "left"}},
		"series": series,
	})
}

// fitOption draws predicted against measured, log-log, with the line of
// perfect agreement; it returns how many points could not be drawn.
func fitOption(res *fit.Result, seconds bool) (string, int) {
	var sc fitScatter
	train, test := sc.points(res)
	return sc.option([]any{
		map[string]any{"type": "scatter", "name": "characterisation region (fitted)", "data": train, "symbolSize": 7, "large": len(train) > 2000},
		map[string]any{"type": "scatter", "name": "prediction region (validated)", "data": test, "symbolSize": 7, "symbol": "diamond", "large": len(test) > 2000},
	}, seconds), sc.hidden
}

// predictionsCSV writes every row's measured and predicted value.
func predictionsCSV(t *dataset.Table, f fit.Frame, y string, res *fit.Result) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	vars := res.Model.Vars()
	w.Write(append(append([]string{"line"}, vars...), "set", y+"_measured", y+"_predicted", "residual", "rel_error"))
	cols := make([][]float64, len(vars))
	for i, v := range vars {
		cols[i], _ = f.Column(v)
	}
	for _, pr := range res.Predictions {
		rec := []string{fmt.Sprint(lineOf(t, pr.Row))}
		for i := range vars {
			rec = append(rec, fmtCSV(cols[i], pr.Row))
		}
		set := "test"
		if pr.Train {
			set = "train"
		}
		rec = append(rec, set, fmt.Sprint(pr.Y), fmt.Sprint(pr.Pred), fmt.Sprint(pr.Residual), fmt.Sprint(pr.RelError))
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

func fmtCSV(col []float64, i int) string {
	if i < len(col) {
		return fmt.Sprint(col[i])
	}
	return ""
}

func lineOf(t *dataset.Table, row int) int {
	if t != nil && row >= 0 && row < len(t.Lines) {
		return t.Lines[row]
	}
	return row + 1
}

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

func (p *speedupPage) renderSpeedup() app.UI {
	o := p.out
	sec := app.Section().ID("speedup").Class("panel").Aria("label", "Speedup")
	if o.res == nil {
		return sec.Hidden(true)
	}
	if o.curve == nil {
		return sec.Body(app.H2().Text("Speedup"), app.P().ID("speedup-msg").Class("note").Text(o.curveMsg))
	}
	c := o.curve
	r := c.Predicted.RollOff
	roll := fmt.Sprintf("The predicted speedup peaks at %s on P = %s processors and falls beyond (roll-off point).", fmtNum(r.S), fmtNum(r.P))
	if !r.Found {
		roll = fmt.Sprintf("The predicted speedup still rises at P = %s (%s): no roll-off on this range.", fmtNum(r.P), fmtNum(r.S))
	}
	measured := map[float64]float64{}
	for _, pt := range c.Measured.Points {
		measured[pt.P] = pt.S
	}
	multi, theo := pairMap(o.multi), pairMap(o.theo)
	cell := func(m map[float64]float64, p float64) app.UI {
		if v, ok := m[p]; ok {
			return app.Td().Class("num").Text(fmtNum(v))
		}
		return app.Td().Class("num").Text("—")
	}
	return sec.Body(
		app.H2().Text("Speedup for N = "+units.FormatCount(int64(c.N))),
		&chart{ID: "speedup-chart", Label: "Speedup against processors, log-log: predicted, measured, Amdahl, Gustafson and Sun–Ni", Option: o.speedOpt, Height: 400},
		app.P().ID("rolloff").DataSet("p", fmtNum(r.P)).Text(roll),
		app.If(len(c.Measured.Points) > 0, app.P().ID("rolloff-measured").DataSet("p", fmtNum(c.Measured.RollOff.P)).Text(measuredRollOff(c.Measured.RollOff))),
		app.P().ID("serial-fraction").Class("note").Text(fmt.Sprintf("Amdahl, Gustafson and Sun–Ni take the model's serial fraction at P = 1, f = Seq(N, 1)/T(N, 1) = %s (terms that do not shrink as P grows). Amdahl's speedup is bounded by 1/f; Gustafson scales the work with P; Sun–Ni grows it by W(P·N)/W(N).", fmtNum(c.SerialFraction))),
		app.If(o.curveMsg != "", app.P().Class("note").Text(o.curveMsg)),
		app.Div().Class("table-wrap").Body(app.Table().ID("speedup-table").Body(
			app.Caption().Text("Speedup S(N, P) = T(N, 1)/T(N, P)"),
			app.THead().Body(app.Tr().Body(
				numTh().Text("P"),
				numTh().Text("T predicted"),
				numTh().Text("S predicted"),
				numTh().Text("efficiency"),
				numTh().Text("S measured"),
				app.If(len(o.multi) > 0, numTh().Text("Multi (Table 5)")),
				app.If(len(o.theo) > 0, numTh().Text("theoretic (Tables 3, 4)")),
				numTh().Text("Amdahl"),
				numTh().Text("Gustafson"),
				app.If(len(c.SunNi) > 0, numTh().Text("Sun–Ni")),
			)),
			app.TBody().Body(app.Range(c.Predicted.Points).Slice(func(i int) app.UI {
				pt := c.Predicted.Points[i]
				at := func(xs []float64) string {
					if i < len(xs) {
						return fmtNum(xs[i])
					}
					return "—"
				}
				tr := app.Tr()
				if pt.P == r.P {
					tr = tr.Style("font-weight", "700")
				}
				return tr.Body(
					app.Th().Scope("row").Class("num").Text(fmtNum(pt.P)),
					app.Td().Class("num").Text(fmtValue(pt.T, o.seconds)),
					app.Td().Class("num").Text(fmtNum(pt.S)),
					app.Td().Class("num").Text(fmtNum(pt.E)),
					cell(measured, pt.P),
					app.If(len(o.multi) > 0, cell(multi, pt.P)),
					app.If(len(o.theo) > 0, cell(theo, pt.P)),
					app.Td().Class("num").Text(at(c.Amdahl)),
					app.Td().Class("num").Text(at(c.Gustafson)),
					app.If(len(c.SunNi) > 0, app.Td().Class("num").Text(at(c.SunNi))),
				)
			})),
		)),
	)
}

func measuredRollOff(r speedup.RollOff) string {
	if !r.Found {
		return fmt.Sprintf("The measured speedup still rises at the largest P measured, %s (%s).", fmtNum(r.P), fmtNum(r.S))
	}
	return fmt.Sprintf("The measured speedup peaks at %s on P = %s.", fmtNum(r.S), fmtNum(r.P))
}

func pairMap(ps [][2]float64) map[float64]float64 {
	m := map[float64]float64{}
	for _, p := range ps {
		m[p[0]] = p[1]
	}
	return m
}

func fmtValue(v float64, seconds bool) string {
	if seconds && finite(v) {
		return units.FormatSeconds(v)
	}
	return fmtNum(v)
}

func (p *speedupPage) renderPredictions() app.UI {
	o := p.out
	sec := app.Section().ID("predictions").Class("panel").Aria("label", "Predicted against measured")
	if o.res == nil {
		return sec.Hidden(true)
	}
	r := o.res
	vars := r.Model.Vars()
	f := p.frame()
	cols := make([][]float64, len(vars))
	for i, v := range vars {
		cols[i], _ = f.Column(v)
	}
	shown := r.Predictions
	if len(shown) > maxShownRows {
		shown = shown[:maxShownRows]
	}
	return sec.Body(
		app.H2().Text("Predicted against measured"),
		&chart{ID: "fit-chart", Label: "Predicted against measured, log-log, with the line where they agree", Option: o.fitOpt, Height: 380},
		app.If(o.hidden > 0, app.P().Class("note").Text(fmt.Sprintf("%d point(s) with a measured or predicted value that is not positive cannot be drawn on log axes; the table lists them.", o.hidden))),
		app.P().Body(app.Button().ID("download-fit").Text("Download every row (CSV)").OnClick(p.onDownload)),
		app.If(len(r.Predictions) > len(shown), app.P().Class("note").Text(fmt.Sprintf("The table shows the first %d of %d rows; the CSV has them all.", len(shown), len(r.Predictions)))),
		app.Div().Class("table-wrap").Body(app.Table().ID("prediction-table").Body(
			app.Caption().Text("Every row, with its residual"),
			app.THead().Body(app.Tr().Body(
				numTh().Text("line"),
				app.Range(vars).Slice(func(i int) app.UI { return numTh().Text(vars[i]) }),
				app.Th().Scope("col").Text("region"),
				numTh().Text("measured"),
				numTh().Text("predicted"),
				numTh().Text("residual"),
				numTh().Text("rel. error"),
			)),
			app.TBody().Body(app.Range(shown).Slice(func(i int) app.UI {
				pr := shown[i]
				set := "prediction"
				if pr.Train {
					set = "characterisation"
				}
				return app.Tr().Body(
					app.Td().Class("num").Text(fmt.Sprint(lineOf(p.tbl, pr.Row))),
					app.Range(vars).Slice(func(k int) app.UI {
						v := "—"
						if pr.Row < len(cols[k]) {
							v = fmtNum(cols[k][pr.Row])
						}
						return app.Td().Class("num").Text(v)
					}),
					app.Td().Text(set),
					app.Td().Class("num").Text(fmtValue(pr.Y, o.seconds)),
					app.Td().Class("num").Text(fmtValue(pr.Pred, o.seconds)),
					app.Td().Class("num").Text(fmtValue(pr.Residual, o.seconds)),
					app.Td().Class("num").Text(fmtPct(pr.RelError)),
				)
			})),
		)),
	)
}

func (p *speedupPage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.Div().Class("row").Body(
			app.Label().For("speedup-link").Class("visually-hidden").Text("Link to this fit"),
			app.Input().ID("speedup-link").Type("text").ReadOnly(true).Value(p.share).Class("link"),
			app.Button().ID("copy-link").Text("Copy link").OnClick(p.onCopy),
			downloadButton("speedup-download", p.onDownloadScenario),
		),
		app.If(p.shareErr != "", app.P().Class("note").Text(p.shareErr)),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		app.P().Class("note").Text("The link holds the data set, terms, region, weighting and N after the #, so it opens with the same numbers anywhere, also offline. Imported data stays in this browser. memwall fit reads the link with --link and the file with --scenario."),
	)
}
