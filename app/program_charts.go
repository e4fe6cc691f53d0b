package app

import (
	"math"

	"memwall/engine/lang"
)

// predictionChart draws the simulated sizes, the fitted curve up to the
// size asked for, and the prediction there, on log axes.
func predictionChart(pr *lang.Prediction, closed *float64) string {
	var fitted, others [][2]float64
	for _, pt := range pr.Points {
		if pt.Train {
			fitted = append(fitted, [2]float64{float64(pt.Size), pt.Seconds})
		} else {
			others = append(others, [2]float64{float64(pt.Size), pt.Seconds})
		}
	}
	series := []any{
		map[string]any{"type": "scatter", "name": "simulated", "data": others, "symbolSize": 6},
		map[string]any{"type": "scatter", "name": "simulated, fitted", "data": fitted, "symbolSize": 8},
	}
	if !pr.Direct && len(pr.Points) > 0 {
		var curve [][2]float64
		lo := math.Log(float64(pr.Points[0].Size))
		hi := math.Log(float64(pr.At))
		for i := 0; i <= 60; i++ {
			x := math.Exp(lo + (hi-lo)*float64(i)/60)
			if y := pr.Eval(x); y > 0 && finite(y) {
				curve = append(curve, [2]float64{x, y})
			}
		}
		series = append(series, map[string]any{"type": "line", "name": "fitted T(" + pr.Size + ")", "data": curve, "showSymbol": false})
	}
	series = append(series, map[string]any{"type": "scatter", "name": "predicted", "data": [][2]float64{{float64(pr.At), pr.Seconds}}, "symbolSize": 14, "symbol": "diamond"})
	if closed != nil && *closed > 0 {
		series = append(series, map[string]any{"type": "scatter", "name": "closed form", "data": [][2]float64{{float64(pr.At), *closed}}, "symbolSize": 12, "symbol": "triangle"})
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 56, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "log", "name": pr.Size, "nameLocation": "middle", "nameGap": 30, "axisLabel": map[string]any{"formatter": "@count"}},
		"yAxis":     map[string]any{"type": "log", "name": "time", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series":    series,
	})
}

// compareChart draws both programs over the size with the crossovers.
func compareChart(cmp *lang.Comparison) string {
	var a, b [][2]float64
	for _, pt := range cmp.Points {
		a = append(a, [2]float64{float64(pt.Size), pt.A})
		b = append(b, [2]float64{float64(pt.Size), pt.B})
	}
	var marks []any
	for _, x := range cmp.Crossovers {
		marks = append(marks, map[string]any{"xAxis": x, "name": "crossover"})
	}
	sa := map[string]any{"type": "line", "name": "A", "data": a}
	if len(marks) > 0 {
		sa["markLine"] = map[string]any{"symbol": "none", "label": map[string]any{"formatter": "crossover"}, "lineStyle": map[string]any{"type": "dashed"}, "data": marks}
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 56, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "log", "name": cmp.Size, "nameLocation": "middle", "nameGap": 30, "axisLabel": map[string]any{"formatter": "@count"}},
		"yAxis":     map[string]any{"type": "log", "name": "time", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series":    []any{sa, map[string]any{"type": "line", "name": "B", "data": b}},
	})
}
