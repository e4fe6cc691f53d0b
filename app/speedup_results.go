package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/speedup"
	"memwall/engine/units"
)

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
