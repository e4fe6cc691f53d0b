package app

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/units"
	"memwall/presets"
)

// What the Paper page shows, built from presets.MBRAMReplication and the
// engine; the page (paper.go) only lays it out.

// paperRow is one printed prediction of the MBRAM paper beside memwall's value.
type paperRow struct {
	presets.ReplicationRow
	MachineName string
	KernelName  string
	Note        int    // footnote number of the reason, 0 when the values agree
	Link        string // the Kernels page with this calculation
}

// paperNote is one reason shared by the rows that differ for it.
type paperNote struct {
	N       int
	Reason  string
	Reading string // the reading of docs/readings.md the differing group comes from
	Rows    int
}

// replicationView is the replication table.
type replicationView struct {
	Rows  []paperRow
	Notes []paperNote
	Agree int
	Err   string
}

// buildReplication numbers the reasons the way `memwall replicate mbram`
// does: in table order, one footnote per distinct reason.
func buildReplication() replicationView {
	var v replicationView
	rows, err := presets.MBRAMReplication()
	if err != nil {
		v.Err = err.Error()
		return v
	}
	for _, r := range rows {
		pr := paperRow{ReplicationRow: r, MachineName: r.Machine, KernelName: r.Kernel}
		m, ok := presets.Machine(r.Machine)
		if ok {
			pr.MachineName = m.Name
		}
		if k, ok := mbram.Lookup(r.Kernel); ok {
			pr.KernelName = k.Name
		}
		if ok {
			// The paper states no bucket count for the matrix product; the
			// Kernels page reads b in every link, so it gets the default.
			params := r.Params
			if params.Buckets == 0 {
				params.Buckets = mbram.DefaultParams(0).Buckets
			}
			s := scenario.Scenario{Machine: m, Kernel: r.Kernel, Params: params}
			if frag, err := s.Fragment(presets.Machine); err == nil {
				pr.Link = Href("/") + "#" + frag
			}
		}
		if r.Matches {
			v.Agree++
		} else {
			reason := r.Reason
			if reason == "" {
				reason = "The values differ by more than the printed precision; the MBRAM paper gives no inputs that explain it."
			}
			n := 0
			for i := range v.Notes {
				if v.Notes[i].Reason == reason {
					n = v.Notes[i].N
					v.Notes[i].Rows++
				}
			}
			if n == 0 {
				n = len(v.Notes) + 1
				v.Notes = append(v.Notes, paperNote{N: n, Reason: reason, Reading: designReading(r.Kernel), Rows: 1})
			}
			pr.Note = n
		}
		v.Rows = append(v.Rows, pr)
	}
	return v
}

// designReading names the reading of docs/readings.md that memwall follows for
// a kernel whose printed prediction it does not reproduce.
func designReading(kernel string) string {
	switch kernel {
	case "perm-twopass":
		return "Two-pass permutation product (Fig. 3): 10w·N/β2, the MBRAM paper's 40N/β2 for w = 4, computed with the stated N = 2^20; the printed column matches N = 10^6 and is shown beside it."
	case "perm":
		return "Traditional permutation product (Fig. 3): (3w/β1 + B/β2)·N, the MBRAM paper's (12/β1 + B/β2)·N for w = 4, computed with the stated N = 2^20; the printed column matches it only on the 2.66 GHz Pentium 4."
	case "bucket", "bucket-count":
		return "Bucket sorts (Fig. 5): the printed formulas with C in bytes throughout, as for every other sort; the printed 0.47 s and 0.57 s need C in different units in different terms."
	}
	return "The formula as printed, with the stated workload."
}

// Formatting as `memwall replicate mbram` prints it: the paper's values to
// their printed precision, memwall's to one more digit.
func (r paperRow) measuredText() string { return strconv.FormatFloat(r.Measured, 'f', r.Decimals, 64) }
func (r paperRow) printedText() string  { return strconv.FormatFloat(r.Printed, 'f', r.Decimals, 64) }
func (r paperRow) engineText() string   { return strconv.FormatFloat(r.Engine, 'f', r.Decimals+1, 64) }
func (r paperRow) diffText() string     { return fmt.Sprintf("%+.1f %%", 100*r.RelDiff) }

// label names the row as the tests and screen readers find it.
func (r paperRow) label() string { return r.Figure + " " + r.Kernel }

// sizeText writes N (or n for the matrix product) as the paper does: 2^20,
// 8Mi, or a plain number.
func (r paperRow) sizeText() string {
	if nIsDimension(r.Kernel) {
		return "n = " + strconv.FormatInt(r.Params.N, 10)
	}
	return "N = " + units.FormatCount(r.Params.N)
}

// fig1Machines are the MBRAM paper's four Pentiums, oldest to newest (Fig. 1 tells
// the story in this order).
var fig1Machines = []string{"p2-0.35-pc66", "p3-0.6-pc100", "p4-1.7-pc133", "p4-2.66-ddr266"}

// fig1N is the element count of the MBRAM paper's Fig. 3.
const fig1N = 1 << 20

// fig1Row is one machine of the Fig. 1 story.
type fig1Row struct {
	Machine          machine.Machine
	Trad, TwoPass    float64 // predicted seconds
	MTrad, MTwoPass  float64 // measured seconds (Fig. 3), 0 when not printed
	Wins, MeasuredOK bool    // two-pass predicted faster; the measurement says the same
}

type fig1View struct {
	Rows     []fig1Row
	Sentence string
	Option   string
	Err      string
}

// buildFig1 predicts both permutation products for N = 2^20 on the four
// Pentiums and says where the two-pass algorithm wins.
func buildFig1(rep replicationView) fig1View {
	var v fig1View
	measured := map[string]float64{}
	for _, r := range rep.Rows {
		if r.Figure == "Fig. 3" {
			measured[r.Machine+"/"+r.Kernel] = r.Measured
		}
	}
	for _, id := range fig1Machines {
		m, ok := presets.Machine(id)
		if !ok {
			v.Err = "no preset machine " + id
			return v
		}
		p := mbram.DefaultParams(fig1N)
		trad, err1 := mbram.Seconds(m, "perm", p)
		two, err2 := mbram.Seconds(m, "perm-twopass", p)
		if err := errors.Join(err1, err2); err != nil {
			v.Err = err.Error()
			return v
		}
		r := fig1Row{Machine: m, Trad: trad, TwoPass: two, MTrad: measured[id+"/perm"], MTwoPass: measured[id+"/perm-twopass"], Wins: two < trad}
		r.MeasuredOK = r.MTrad > 0 && r.MTwoPass > 0 && (r.MTwoPass < r.MTrad) == r.Wins
		v.Rows = append(v.Rows, r)
	}
	v.Sentence = fig1Sentence(v.Rows)
	v.Option = fig1Option(v.Rows)
	return v
}

// fig1Sentence says, from the numbers, on which machines the two-pass
// algorithm is predicted to win, and whether the paper's measurements agree.
func fig1Sentence(rows []fig1Row) string {
	var win, lose []string
	agree := 0
	for _, r := range rows {
		if r.Wins {
			win = append(win, "the "+r.Machine.Name)
		} else {
			lose = append(lose, "the "+r.Machine.Name)
		}
		if r.MeasuredOK {
			agree++
		}
	}
	var s string
	switch {
	case len(win) == 0:
		s = "For N = 2^20 the two-pass algorithm is predicted to lose on every one of the four machines"
	case len(lose) == 0:
		s = "For N = 2^20 the two-pass algorithm is predicted to win on every one of the four machines"
	default:
		s = "For N = 2^20 the two-pass algorithm is predicted to lose on " + andList(lose) + " and to win on " + andList(win)
	}
	switch agree {
	case len(rows):
		s += "; the MBRAM paper's measured times (Fig. 3) say the same on every machine."
	default:
		s += fmt.Sprintf("; the MBRAM paper's measured times (Fig. 3) agree on %d of the %d machines.", agree, len(rows))
	}
	return s
}

func andList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// axisName is a machine's label on a category axis, narrow enough for a
// phone: "Pentium II" over "0.35 GHz" for "0.35 GHz Pentium II / PC-66".
func axisName(name string) string {
	cpu, _, _ := strings.Cut(name, " / ")
	if clock, model, ok := strings.Cut(cpu, " GHz "); ok {
		return model + "\n" + clock + " GHz"
	}
	return cpu
}

// fig1Option draws grouped bars (traditional, two-pass) per machine with
// the paper's measured times as markers on their bars.
func fig1Option(rows []fig1Row) string {
	cats := make([]string, len(rows))
	trad := make([]float64, len(rows))
	two := make([]float64, len(rows))
	var mTrad, mTwo []any
	for i, r := range rows {
		cats[i], trad[i], two[i] = axisName(r.Machine.Name), r.Trad, r.TwoPass
		if r.MTrad > 0 {
			mTrad = append(mTrad, marker(i, r.MTrad))
		}
		if r.MTwoPass > 0 {
			mTwo = append(mTwo, marker(i, r.MTwoPass))
		}
	}
	markers := func(data []any) map[string]any {
		return map[string]any{"symbol": "diamond", "symbolSize": 14, "data": data,
			"itemStyle": map[string]any{"color": "#1b1f24", "borderColor": "#fff", "borderWidth": 1},
			"label":     map[string]any{"show": false}}
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"bottom": 0, "left": 0, "right": 0},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"grid":      map[string]any{"left": 8, "right": 16, "top": 48, "bottom": 64, "containLabel": true},
		"xAxis":     map[string]any{"type": "category", "data": cats, "axisLabel": map[string]any{"interval": 0, "lineHeight": 16}},
		"yAxis":     map[string]any{"type": "value", "name": "time for N = 2^20", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": []any{
			map[string]any{"type": "bar", "name": "traditional, predicted", "data": trad, "itemStyle": map[string]any{"color": "#5470c6"}, "markPoint": markers(mTrad)},
			map[string]any{"type": "bar", "name": "two-pass, predicted", "data": two, "itemStyle": map[string]any{"color": "#fac858"}, "markPoint": markers(mTwo)},
			// No data: the legend entry that explains the markers.
			map[string]any{"type": "scatter", "name": "measured (the MBRAM paper, Fig. 3)", "data": []any{}, "symbol": "diamond", "symbolSize": 12,
				"itemStyle": map[string]any{"color": "#1b1f24"}},
		},
	})
}

func marker(i int, v float64) map[string]any {
	return map[string]any{"name": "measured", "coord": []any{i, v}, "value": v}
}

// acrossPair is the select's value for the two permutation products drawn
// together, the default.
const acrossPair = "perm-pair"

// acrossPoints is the number of N values per line of the across-machines
// chart: a point every 2^(1/3) from 2^10 to 2^30.
const acrossPoints = 61

type acrossView struct {
	Kernel   string // acrossPair or a kernel id
	Option   string
	Machines int
	Points   int
	Millis   float64
}

// acrossKernels are the kernels drawn for a select value.
func acrossKernels(choice string) []string {
	if choice == acrossPair {
		return []string{"perm-twopass", "perm"}
	}
	return []string{choice}
}

// validAcross reports whether choice is a select value.
func validAcross(choice string) bool {
	if choice == acrossPair {
		return true
	}
	_, ok := mbram.Lookup(choice)
	return ok
}

// acrossPalette gives each machine one colour across its kernels (the
// ECharts default palette).
var acrossPalette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// buildAcross predicts the chosen kernel(s) against N on every machine of
// the library: a line per machine and kernel, solid for the first kernel,
// dashed for the second.
func buildAcross(choice string, ms []machine.Machine) acrossView {
	ids := acrossKernels(choice)
	lo, hi := int64(1<<10), int64(1<<30)
	what := "N, elements"
	if nIsDimension(ids[0]) {
		lo, hi = 16, 1<<14
		what = "n, matrix dimension"
	}
	xs := sweepGrid(lo, hi, acrossPoints)
	start := time.Now()
	points := 0
	var raws rawParts
	series := make([]any, 0, len(ms)*len(ids))
	for mi, m := range ms {
		color := acrossPalette[mi%len(acrossPalette)]
		for ki, id := range ids {
			k, ok := mbram.Lookup(id)
			if !ok {
				continue
			}
			data := make([]byte, 0, 24*len(xs))
			data = append(data, '[')
			for _, x := range xs {
				if sec, err := mbram.Seconds(m, id, mbram.DefaultParams(x)); err == nil && sec > 0 && !math.IsInf(sec, 0) {
					data = appendPoint(data, x, sec)
					points++
				}
			}
			data = append(data[:len(data)-boolInt(data[len(data)-1] == ',')], ']')
			name := m.Name
			if len(ids) > 1 {
				name += " · " + kernelShort(k)
			}
			style := map[string]any{"width": 2, "color": color}
			if ki > 0 {
				style["type"] = "dashed"
			}
			series = append(series, map[string]any{"type": "line", "name": name, "showSymbol": false, "data": raws.add(data),
				"lineStyle": style, "itemStyle": map[string]any{"color": color}})
		}
	}
	ms0 := float64(time.Since(start).Nanoseconds()) / 1e6
	opt := map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 32, "top": 48, "bottom": 72, "containLabel": true},
		"legend":    map[string]any{"bottom": 0, "left": 0, "right": 0, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     sizeAxis(what, lo, hi),
		"yAxis":     timeAxis(),
		"series":    series,
	}
	return acrossView{Kernel: choice, Option: raws.splice(chartJSON(opt)), Machines: len(ms), Points: points, Millis: ms0}
}

// kernelShort is a kernel's name for a legend entry: "two-pass" for
// "Permutation product (two-pass)".
func kernelShort(k mbram.Kernel) string {
	if i := strings.Index(k.Name, "("); i >= 0 && strings.HasSuffix(k.Name, ")") {
		return k.Name[i+1 : len(k.Name)-1]
	}
	return k.Name
}

// acrossOptions are the select's choices: the pair first, then each kernel.
func acrossOptions() []option {
	opts := []option{{Value: acrossPair, Label: "Two-pass against traditional permutation product", Group: "The MBRAM paper's Fig. 1"}}
	for _, k := range mbram.Kernels() {
		opts = append(opts, option{Value: k.ID, Label: k.Name, Group: familyName(k.Family)})
	}
	return opts
}
