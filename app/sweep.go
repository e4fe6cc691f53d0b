package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"memwall/engine/estimate"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/units"
)

// sweepPoints is the number of N values on the sweep chart (docs/readings.md
// section 6 times a 200-point sweep of every kernel).
const sweepPoints = 200

type sweepResult struct {
	Option   string  // chart option
	Summary  string  // what the chart shows, in words
	From, To int64   // the N range used
	Points   int     // predictions computed
	Millis   float64 // time they took, shown on the page and read by the browser tests
}

// sweepRange is the N range of the sweep: the user's bounds where given,
// else one that spans from small to well past the current N.
func sweepRange(kernel string, n, from, to int64) (int64, int64) {
	lo, hi, max := int64(1<<10), int64(1<<32), int64(mbram.MaxN)
	if nIsDimension(kernel) {
		lo, hi, max = 16, 1<<14, mbram.MaxMatrix
	}
	for hi < 4*n && hi < max/2 {
		hi *= 2
	}
	for lo > 1 && lo > n/4 {
		lo /= 2
	}
	if from > 0 {
		lo = from
	}
	if to > 0 {
		hi = to
	}
	return lo, min(hi, max)
}

// sweepGrid is n log-spaced whole numbers from lo to hi, without repeats.
func sweepGrid(lo, hi int64, n int) []int64 {
	xs := make([]int64, 0, n)
	l, h := math.Log(float64(lo)), math.Log(float64(hi))
	for i := 0; i < n; i++ {
		x := int64(math.Round(math.Exp(l + (h-l)*float64(i)/float64(n-1))))
		if len(xs) == 0 || x > xs[len(xs)-1] {
			xs = append(xs, x)
		}
	}
	return xs
}

// sweepKernels predicts the scenario's kernel and the compared ones over
// the sweep range on the scenario's machine, by the model of the page's
// main number, so the curve passes through it.
func sweepKernels(s scenario.Scenario, model estimate.Model) sweepResult {
	lo, hi := sweepRange(s.Kernel, s.Params.N, s.SweepFrom, s.SweepTo)
	xs := sweepGrid(lo, hi, sweepPoints)
	ids := append([]string{s.Kernel}, s.Compare...)
	start := time.Now()
	points := 0
	series := make([]any, 0, len(ids))
	var raws rawParts
	times := map[string][]float64{} // per kernel, per x; 0 where none
	var names, notBound []string
	for i, id := range ids {
		k, ok := mbram.Lookup(id)
		if !ok || !sameAxis(id, s.Kernel) {
			continue
		}
		data := make([]byte, 0, 24*len(xs))
		data = append(data, '[')
		ts := estimate.Sweep(model, s.Machine, id, s.Params, xs)
		for j, x := range xs {
			if sec := ts[j]; sec > 0 {
				data = appendPoint(data, x, sec)
				points++
			}
		}
		times[id] = ts
		names = append(names, id)
		data = append(data[:len(data)-boolInt(data[len(data)-1] == ',')], ']')
		ser := map[string]any{"type": "line", "name": k.Name, "showSymbol": false, "data": raws.add(data), "lineStyle": map[string]any{"width": 2}}
		if i == 0 {
			ser["lineStyle"] = map[string]any{"width": 3}
			ser["markLine"] = map[string]any{
				"symbol": "none", "silent": true,
				"label": map[string]any{"formatter": "N = " + units.FormatCount(s.Params.N)},
				"data":  []any{map[string]any{"xAxis": s.Params.N}},
			}
		}
		if a, b, ok := notBoundRange(s, model, id, xs); ok {
			// Where the formula's regime does not hold the curve is no
			// bound: shaded, and said in the summary.
			ser["markArea"] = map[string]any{
				"silent":    true,
				"itemStyle": map[string]any{"color": "rgba(154, 52, 18, 0.08)"},
				"label":     map[string]any{"show": i == 0, "position": "insideTop", "fontSize": 11, "formatter": "not a bound here"},
				"data":      []any{[]any{map[string]any{"xAxis": a}, map[string]any{"xAxis": b}}},
			}
			notBound = append(notBound, fmt.Sprintf("%s is not a bound from n = %s to %s (shaded): its formula's regime does not hold there.", k.Name, units.FormatCount(a), units.FormatCount(b)))
		}
		series = append(series, ser)
	}
	ms := float64(time.Since(start).Nanoseconds()) / 1e6
	what := "N, elements"
	if nIsDimension(s.Kernel) {
		what = "n, matrix dimension"
	}
	opt := map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 32, "top": 56, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "type": "scroll", "right": 90},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     sizeAxis(what, lo, hi),
		"yAxis":     timeAxis(),
		"series":    series,
	}
	return sweepResult{Option: raws.splice(chartJSON(opt)), Summary: strings.TrimSpace(sweepSummary(s, model, xs, names, times) + " " + strings.Join(notBound, " ")), From: lo, To: hi, Points: points, Millis: ms}
}

// sweepSummary says in words what the sweep shows: the kernel's time over
// the range and, for each compared kernel, the ratio at the chosen n and
// where the two cross.
func sweepSummary(s scenario.Scenario, model estimate.Model, xs []int64, ids []string, times map[string][]float64) string {
	if len(ids) == 0 || len(xs) == 0 {
		return ""
	}
	main := times[ids[0]]
	k, _ := mbram.Lookup(ids[0])
	first, last := -1, -1
	for j, t := range main {
		if t > 0 {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s takes from %s at n = %s to %s at n = %s.", k.Name,
		units.FormatSeconds(main[first]), units.FormatCount(xs[first]), units.FormatSeconds(main[last]), units.FormatCount(xs[last]))
	at, _ := estimate.Seconds(model, s.Machine, ids[0], s.Params)
	for _, id := range ids[1:] {
		c, _ := mbram.Lookup(id)
		other := times[id]
		if t, err := estimate.Seconds(model, s.Machine, id, s.Params); err == nil && t > 0 && at > 0 {
			fmt.Fprintf(&b, " At n = %s, %s takes %s the time of %s", units.FormatCount(s.Params.N), c.Name, ratioWords(t/at), k.Name)
		} else {
			fmt.Fprintf(&b, " %s", c.Name)
		}
		var cross []string
		for j := 1; j < len(xs); j++ {
			a0, a1, o0, o1 := main[j-1], main[j], other[j-1], other[j]
			if a0 > 0 && a1 > 0 && o0 > 0 && o1 > 0 && (a0 < o0) != (a1 < o1) {
				cross = append(cross, units.FormatCount(xs[j]))
			}
		}
		switch {
		case len(cross) == 0:
			b.WriteString("; the two do not cross in this range.")
		case len(cross) <= 3:
			fmt.Fprintf(&b, "; they cross near n = %s.", strings.Join(cross, ", "))
		default:
			fmt.Fprintf(&b, "; they cross %d times.", len(cross))
		}
	}
	return b.String()
}

// ratioWords writes a time ratio as "1.7×" or "0.59×".
func ratioWords(r float64) string {
	return strconv.FormatFloat(r, 'g', 2, 64) + "×"
}

// appendPoint writes "[x,y]," with y to six significant digits, plenty for
// a chart: encoding/json's reflection over [][2]float64 took as long as the
// predictions themselves.
func appendPoint(b []byte, x int64, y float64) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, x, 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, y, 'g', 6, 64)
	return append(b, ']', ',')
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// breakdownOption draws the prediction as one bar split into its terms:
// where the time goes, at a glance.
func breakdownOption(b mbram.Breakdown) string {
	series := make([]any, len(b.Terms))
	for i, t := range b.Terms {
		series[i] = map[string]any{"type": "bar", "stack": "total", "name": t.Name, "data": []float64{t.Seconds}, "barWidth": 30,
			"label": map[string]any{"show": b.Seconds > 0 && t.Seconds/b.Seconds > 0.12, "formatter": "@label-seconds", "color": "#fff"}}
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"bottom": 0, "left": 0, "orient": "vertical"},
		"grid":      map[string]any{"left": 8, "right": 24, "top": 36, "bottom": 20 + 22*len(b.Terms), "containLabel": true},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "value", "max": "dataMax", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"yAxis":     map[string]any{"type": "category", "data": []string{"time"}, "show": false},
		"series":    series,
	})
}

// sizeAxis is the x axis of a sweep over a size from lo to hi: base-2
// logarithmic, labelled in the paper's units (8Mi).
func sizeAxis(what string, lo, hi int64) map[string]any {
	return map[string]any{"type": "log", "logBase": 2, "name": what, "nameLocation": "middle", "nameGap": 30,
		"min": lo, "max": hi, "axisLabel": map[string]any{"formatter": "@count"},
		"axisPointer": map[string]any{"label": map[string]any{"formatter": "@count"}}}
}

// timeAxis is the y axis of predicted times: logarithmic, in seconds.
func timeAxis() map[string]any {
	return map[string]any{"type": "log", "name": "predicted time", "axisLabel": map[string]any{"formatter": "@seconds"}}
}

// breakdownSummary says where the predicted time goes, in words.
func breakdownSummary(b mbram.Breakdown) string {
	if len(b.Terms) == 0 || b.Seconds <= 0 {
		return ""
	}
	top := b.Terms[0]
	for _, t := range b.Terms {
		if t.Seconds > top.Seconds {
			top = t
		}
	}
	return fmt.Sprintf("%s in %s; the largest, %s, is %.0f%% of %s.", plural(int64(len(b.Terms)), "term", "terms"), "one bar",
		top.Name, 100*top.Seconds/b.Seconds, units.FormatSeconds(b.Seconds))
}

// notBoundRange finds the sizes of the grid where the kernel's prediction
// is not a lower bound (mbram's NotBound): sampled at every eighth size,
// then the ends refined to the neighbouring sizes. It returns the first and
// last such size, and whether there are any. Only the paper's model is
// ever a bound: the hierarchy model's curve is an estimate throughout, as
// the page says beside its number, and has nothing to shade.
func notBoundRange(s scenario.Scenario, model estimate.Model, id string, xs []int64) (a, b int64, ok bool) {
	if estimate.Choose(model, s.Machine) != estimate.MBRAM {
		return 0, 0, false
	}
	notBound := func(j int) bool {
		p := s.Params
		p.N = xs[j]
		br, err := mbram.Predict(s.Machine, id, p)
		return err == nil && br.NotBound != ""
	}
	first, last := -1, -1
	for j := 0; j < len(xs); j++ {
		if (j%8 == 0 || j == len(xs)-1) && notBound(j) {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	for first > 0 && notBound(first-1) {
		first--
	}
	for last < len(xs)-1 && notBound(last+1) {
		last++
	}
	return xs[first], xs[last], true
}
