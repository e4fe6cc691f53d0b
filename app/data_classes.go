package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/hier"
	"memwall/engine/ranking"
	"memwall/presets"
)

// classRuns gathers a validate table's runs by size class, in the order
// the classes first appear, for ranking.Summarize: what `memwall
// validate --sizes levels` printed under its table, recomputed on the
// machine as the library holds it now. Each run carries how the
// calibration's spreads move its hierarchy prediction, so that a pair
// the model cannot tell apart is not counted against it.
type classRuns struct {
	order []string
	runs  map[string][]ranking.Run
}

// add files the validate row r, predicted as row.
func (c *classRuns) add(r presets.ValidationRow, row dataRow) {
	if r.Class == "" {
		return
	}
	if c.runs == nil {
		c.runs = map[string][]ranking.Run{}
	}
	if _, ok := c.runs[r.Class]; !ok {
		c.order = append(c.order, r.Class)
	}
	row.sense() // done already for the rows the table shows
	c.runs[r.Class] = append(c.runs[r.Class], ranking.Run{Kernel: r.Kernel, Measured: r.Measured, Range: r.Range, Predicted: row.Predicted, Hier: row.Hier, HierShifts: row.hierShifts})
}

// summaries is each class's ranking.
func (c *classRuns) summaries() []ranking.Summary {
	var out []ranking.Summary
	for _, name := range c.order {
		out = append(out, ranking.Summarize(name, c.runs[name]))
	}
	return out
}

// renderClasses sets the size classes side by side: the band, the sorts'
// ranking by both models, the faster permutation product, and the pairs
// of sorts the hierarchy model orders against the measurement, read three
// ways. Classes are the columns, so that three fit a phone.
func (p *dataPage) renderClasses() app.UI {
	cs := p.cmp.Classes
	if len(cs) == 0 {
		return app.Section().ID("classes").Hidden(true)
	}
	heads := []app.UI{app.Td()}
	for _, c := range cs {
		heads = append(heads, numTh().Style("white-space", "nowrap").Text(sizeClassName(c.Class)))
	}
	row := func(name string, cell func(c ranking.Summary) string) app.UI {
		tds := []app.UI{app.Th().Scope("row").Text(name)}
		for _, c := range cs {
			// A list of pairs may wrap; a count or a name stays on
			// one line, so that the columns keep their widths.
			text, cls := cell(c), "num nowrap"
			if strings.Contains(text, " < ") {
				cls = "num wrap"
			}
			tds = append(tds, app.Td().Class(cls).Text(text))
		}
		return app.Tr().Body(tds...)
	}
	return app.Section().ID("classes").Class("panel").Aria("label", "By size class").Body(
		app.H2().Text("By size class"),
		app.Div().Class("table-wrap").Body(app.Table().ID("class-table").Body(
			app.Caption().Text("Each size class, as validate reads it"),
			app.THead().Body(app.Tr().Body(heads...)),
			app.TBody().Body(
				row(fmt.Sprintf("in [%g, %g]", hier.BandLo, hier.BandHi), func(c ranking.Summary) string { return fmt.Sprintf("%d of %d", c.InBand, c.Rows) }),
				row("sorts' ρ, MBRAM", func(c ranking.Summary) string { return fmt.Sprintf("%.3f", c.SpearmanSorts) }),
				row("sorts' ρ, hierarchy", func(c ranking.Summary) string { return fmt.Sprintf("%.3f", c.SpearmanSortsHier) }),
				row("faster product, measured", func(c ranking.Summary) string { return permName(c.PermWinner) + tieMark(c.PermWithinNoise) }),
				row("… by MBRAM", func(c ranking.Summary) string { return permName(c.PermPredicted) }),
				row("… by the hierarchy", func(c ranking.Summary) string { return permName(c.PermPredictedHier) + tieMark(c.PermHierTied) }),
				row(fmt.Sprintf("pairs of sorts (of %d) the hierarchy orders wrong", cs[0].SortPairs), func(c ranking.Summary) string { return pairsText(c.MisorderedHier) }),
				row("… apart by more than their rounds' ranges", func(c ranking.Summary) string { return pairsText(c.MisorderedHierBeyondNoise) }),
				row("… and predicted apart by more than the spreads move the gap", func(c ranking.Summary) string {
					return pairsText(c.MisorderedHierResolved)
				}),
			),
		)),
		app.P().Class("note").Text("ρ: Spearman's rank correlation of the sorts' measured and predicted times. Faster product: the traditional or the two-pass permutation product. a < b: a ran faster, the model has b faster. A pair measured closer than the range of either's rounds is the machine's noise, not an order; one the model puts closer than its calibration's spreads move the gap is a tie of the model. A faster product marked ≈ is such a pair: the two products measured within their rounds' range, or predicted within the spreads. The same summary as memwall validate --sizes levels prints, recomputed on the machine as the library holds it."),
	)
}

// sizeClassName names a class in the table's heads.
func sizeClassName(class string) string {
	if n, ok := sizeClassNames[class]; ok {
		return n
	}
	return class
}

// tieMark marks a faster product that is a tie (ranking.PermTies).
func tieMark(tie bool) string {
	if tie {
		return " ≈"
	}
	return ""
}

// permName names a permutation product as its kernel's name does, short.
func permName(id string) string {
	if id == "perm-twopass" {
		return "two-pass"
	}
	return "traditional"
}

// pairsText lists the pairs, or says there are none.
func pairsText(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}
