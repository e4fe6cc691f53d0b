package app

import (
	"memwall/engine/fit"
	"memwall/engine/speedup"
)

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
