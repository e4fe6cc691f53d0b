package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/fit"
)

// fitScatter gathers the points of a predicted-against-measured chart, for
// one fit or several on the same axes.
type fitScatter struct {
	lo, hi float64 // the range the points span, for the line of agreement
	hidden int     // predictions a log axis cannot show (not positive, not finite)
}

// points splits res's predictions into training and test points
// (measured, predicted) and widens the range to hold them.
func (s *fitScatter) points(res *fit.Result) (train, test [][2]float64) {
	for _, pr := range res.Predictions {
		if !(pr.Y > 0 && pr.Pred > 0 && finite(pr.Pred)) {
			s.hidden++
			continue
		}
		pt := [2]float64{pr.Y, pr.Pred}
		if pr.Train {
			train = append(train, pt)
		} else {
			test = append(test, pt)
		}
		for _, v := range pt {
			if s.lo == 0 || v < s.lo {
				s.lo = v
			}
			s.hi = max(s.hi, v)
		}
	}
	return train, test
}

// option is the log-log chart of series with the dashed line of perfect
// agreement under them; seconds formats both axes as times.
func (s *fitScatter) option(series []any, seconds bool) string {
	agree := map[string]any{"type": "line", "name": "predicted = measured", "data": [][2]float64{{s.lo, s.lo}, {s.hi, s.hi}}, "showSymbol": false, "silent": true,
		"lineStyle": map[string]any{"type": "dashed", "color": "#888"}, "itemStyle": map[string]any{"color": "#888"}}
	axisFmt := map[string]any{}
	tip := map[string]any{"trigger": "item"}
	if seconds {
		axisFmt = map[string]any{"formatter": "@seconds"}
		tip["valueFormatter"] = "@seconds"
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 56, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   tip,
		"xAxis":     map[string]any{"type": "log", "name": "measured", "nameLocation": "middle", "nameGap": 30, "axisLabel": axisFmt},
		"yAxis":     map[string]any{"type": "log", "name": "predicted", "axisLabel": axisFmt, "nameTextStyle": map[string]any{"align": "left"}},
		"series":    append([]any{agree}, series...),
	})
}

// fitWarnings lists what makes a fit doubtful (fit.Result.Doubts) and the
// fit's own warnings, nothing when there are none.
func fitWarnings(id string, ws []string) app.UI {
	if len(ws) == 0 {
		return nil
	}
	return app.Ul().ID(id).Class("warnings").Body(
		app.Range(ws).Slice(func(i int) app.UI { return app.Li().Text(ws[i]) }),
	)
}
