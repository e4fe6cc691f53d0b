package app

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/units"
)

// missCurve shows a run's miss curves (hier.Curve.Sample): a chart of the
// misses of an LRU cache of every size, the machine's cache levels marked
// on it, and a table of the misses at those levels. id prefixes the
// element ids.
func missCurve(id string, curves []hier.MissCurve, m machine.Machine) app.UI {
	if len(curves) == 0 {
		return nil
	}
	levels := m.Hierarchy()
	var rows []app.UI
	for _, c := range curves {
		for _, l := range levels {
			if l.Line != c.Line {
				continue
			}
			n := l.Size / l.Line
			miss, ok := c.At(n)
			if !ok {
				continue
			}
			rows = append(rows, app.Tr().DataSet("level", l.Name).Body(
				app.Th().Scope("row").Text(l.Name+" "+units.FormatSize(l.Size)),
				app.Td().Class("num").Text(groupDigits(n)),
				app.Td().Class("num").DataSet("misses", strconv.FormatInt(miss, 10)).Text(groupDigits(miss)),
				app.Td().Class("num").Text(fmt.Sprintf("%.4f", float64(miss)/float64(max(c.Accesses, 1)))),
			))
		}
	}
	c0 := curves[0]
	return app.Section().ID(id).Class("hier-run").Body(
		app.H3().Text("Miss curve"),
		&chart{ID: id + "-chart", Label: "Misses of a fully associative LRU cache of every size over this run, with the machine's cache levels marked", Option: missCurveOption(curves, levels), Height: 320,
			Summary: fmt.Sprintf("From the exact LRU stack distance of every one of the %s line accesses: a cache of c lines misses the accesses at distance c or more, so one pass gives every size. The floor is the %s first accesses, which miss in any cache.", groupDigits(c0.Accesses), groupDigits(c0.Cold))},
		app.Div().Class("table-wrap").Body(app.Table().ID(id+"-levels").Class("counts").Body(
			app.Caption().Text("The curve at the machine's cache sizes"),
			colHeads("Cache", "Lines", "Misses", "Miss ratio"),
			app.TBody().Body(rows...),
		)),
	)
}

// missCurveBox is the box that asks a run for its miss curve.
func missCurveBox(checked bool, onChange app.EventHandler) app.UI {
	return app.Div().Class("field").Body(
		app.Span().Class("check").Body(
			app.Input().Type("checkbox").ID("miss-curve").Checked(checked).Aria("describedby", "miss-curve-hint").OnChange(onChange),
			app.Label().For("miss-curve").Text("Also draw the miss curve"),
		),
		app.Small().ID("miss-curve-hint").Class("hint").Text("the misses of an LRU cache of every size, from each access's exact stack distance; the run takes longer"),
	)
}

// missCurveOption is the chart of the curves: misses against the cache
// size in bytes, both on log axes (a curve falls by orders of magnitude
// over the sizes, and every point has at least the one cold miss), a line
// for each line size, a mark at each level.
func missCurveOption(curves []hier.MissCurve, levels []machine.Level) string {
	series := make([]any, 0, len(curves))
	for i, c := range curves {
		data := make([][2]float64, len(c.Points))
		for j, p := range c.Points {
			data[j] = [2]float64{float64(p.Bytes), float64(p.Misses)}
		}
		s := map[string]any{"type": "line", "name": fmt.Sprintf("misses, %d-byte lines", c.Line), "showSymbol": false, "step": "end", "data": data}
		if i == 0 {
			var marks []any
			for _, l := range levels {
				marks = append(marks, map[string]any{"xAxis": l.Size, "name": l.Name})
			}
			s["markLine"] = map[string]any{
				"symbol": "none", "silent": true, "data": marks,
				"lineStyle": map[string]any{"color": "#555", "type": "dashed"},
				"label":     map[string]any{"formatter": "{b}", "position": "insideEndTop", "fontSize": 11},
			}
		}
		series = append(series, s)
	}
	// The size axis spans whole powers of two around the points and the
	// levels, so its labels fall on the ends too.
	lo, hi := int64(math.MaxInt64), int64(1)
	for _, c := range curves {
		if n := len(c.Points); n > 0 {
			lo, hi = min(lo, c.Points[0].Bytes), max(hi, c.Points[n-1].Bytes)
		}
	}
	lo = min(lo, hi)
	for _, l := range levels {
		hi = max(hi, l.Size)
	}
	xMin, xMax := int64(1), int64(1)
	for xMin*2 <= lo {
		xMin *= 2
	}
	for xMax < hi {
		xMax *= 2
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"top": 0, "left": 0},
		"grid":      map[string]any{"left": 8, "right": 32, "top": 40, "bottom": 8, "containLabel": true},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@count"},
		"xAxis": map[string]any{"type": "log", "logBase": 2, "min": xMin, "max": xMax, "name": "cache size (bytes)", "nameLocation": "middle", "nameGap": 28,
			"axisLabel": map[string]any{"formatter": "@count"}},
		"yAxis":  map[string]any{"type": "log", "axisLabel": map[string]any{"formatter": "@count"}},
		"series": series,
	})
}
