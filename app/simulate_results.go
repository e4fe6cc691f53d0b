package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/mbram"
	"memwall/engine/units"
)

// renderStatus is the run panel: progress, Cancel's effect, the rate.
func (p *simulatePage) renderStatus() app.UI {
	v := p.view
	sec := app.Section().ID("status").Class("panel result").Aria("label", "Run")
	if v == nil {
		return sec.Body(
			app.H2().Text("Run"),
			app.P().ID("status-text").Aria("live", "polite").Text("Press Run to simulate. A run of a few million accesses takes about a second; a long one shows its progress and can be cancelled."),
			app.P().Class("note").Text("The simulator charges every line transfer by the model's rules: B/β1 when it continues one of at most μ1 sequential streams, B/β2 otherwise, and m per mispredicted branch. Like the closed forms it is a lower bound."),
		)
	}
	pc := v.percent()
	var status string
	switch v.state {
	case stateRunning:
		status = fmt.Sprintf("Simulating %s… %d %%", v.what, pc)
	case stateDone:
		status = "Finished: " + v.what + "."
	case stateCancelled:
		status = fmt.Sprintf("Cancelled at about %d %%: %s. The results below are for the %s simulated before Cancel.", pc, v.what, plural(v.counts.Accesses, "access", "accesses"))
	case stateFailed:
		status = "Stopped: " + v.what + "."
	}
	return sec.DataSet("state", stateName(v.state)).Body(
		app.H2().Text("Run"),
		app.P().ID("status-text").Aria("live", "polite").Text(status),
		progressBar("progress", "Simulation progress", pc, v.state == stateRunning),
		app.If(v.err != "", app.P().ID("run-error").Class("error").Aria("live", "assertive").Text(v.err)),
		app.P().ID("rate").DataSet("rate", strconv.FormatFloat(v.rate(), 'g', 6, 64)).DataSet("wall", strconv.FormatFloat(v.wall.Seconds(), 'g', 6, 64)).DataSet("idle", strconv.FormatFloat(v.idle.Seconds(), 'g', 6, 64)).Body(
			app.Text(fmt.Sprintf("%s in %s of wall time: ", plural(v.counts.Accesses, "access", "accesses"), units.FormatSeconds(v.wall.Seconds()))),
			app.Strong().Text(formatRate(v.rate())),
			app.Text(fmt.Sprintf(" in this browser, %s (%.0f %% of the time went to keeping the page responsive).", v.inputWork(), 100*v.idleShare())),
		),
	)
}

// renderResults shows the simulated time beside the closed form, both
// breakdowns, the counts and the cost chart.
func (p *simulatePage) renderResults() app.UI {
	v := p.view
	if v == nil || (v.state == stateFailed && v.counts.Accesses == 0) {
		return app.Div().ID("results").Hidden(true)
	}
	simSecs := v.cfg.Seconds(v.counts)
	terms := v.cfg.Terms(v.counts)
	label := "Simulated"
	switch v.state {
	case stateRunning:
		label = "Simulated so far"
	case stateCancelled, stateFailed:
		label = "Simulated before the stop"
	}
	if v.state != stateRunning {
		simSecs, terms = v.res.Seconds, v.res.Terms
	}
	return app.Section().ID("results").Class("panel result").Aria("label", "Results").DataSet("state", stateName(v.state)).Body(
		app.H2().Text("Results"),
		app.Div().Class("grid").Style("grid-template-columns", sideBySide).Body(
			app.Div().Body(
				app.P().Class("note").Text(label),
				app.P().Class("total").Body(
					app.Span().ID("sim-total").DataSet("seconds", strconv.FormatFloat(simSecs, 'g', -1, 64)).Text(units.FormatSeconds(simSecs)),
				),
			),
			app.Div().Body(
				app.P().Class("note").Text("Closed form (MBRAM formula)"),
				p.renderClosedTotal(v),
			),
		),
		app.If(v.closed != nil && v.state == stateDone && v.closed.Seconds > 0,
			app.P().ID("ratio").Text(fmt.Sprintf("Simulated / closed form = %.3f.", simSecs/closedSeconds(v))),
		),
		app.If(v.closed != nil && v.closed.Regime != "", app.P().Class("regime").Text("Closed form: "+closedRegime(v))),
		app.Div().Class("grid").Style("grid-template-columns", sideBySide).Body(
			termsTable("sim-terms", "Simulated breakdown", terms, simSecs),
			app.If(v.closed != nil, termsTable("closed-terms", "Closed-form breakdown", closedTerms(v), closedSeconds(v))),
		),
		countsTable(v),
		app.If(v.chart != "",
			&chart{ID: "cost-chart", Label: "Simulated time accumulating over the run, by term, against accesses", Option: v.chart, Height: 340},
		),
		app.If(len(v.res.Phases) > 0 && v.state != stateRunning, phasesTable(v.res.Phases)),
		app.P().Class("note").Text("Both are lower bounds: the model charges nothing for hits in the smaller caches, TLB misses or instructions (the MBRAM paper, section II). Where the simulated time differs from the formula, the formula's derivation assumed a pattern the real accesses do not follow."),
		simHierarchy(v),
		app.If(v.state == stateDone, missCurve("sim-curve", v.curves, v.mach)),
	)
}

// simHierarchy is the run through the hierarchy simulator, once it is
// done, or nothing.
func simHierarchy(v *simView) app.UI {
	if v.hier == nil || v.state != stateDone {
		return nil
	}
	return hierarchyRun("sim-hier", v.hier)
}

func closedSeconds(v *simView) float64 {
	if v.closed == nil {
		return 0
	}
	return v.closed.Seconds
}

func closedTerms(v *simView) []mbram.Term {
	if v.closed == nil {
		return nil
	}
	return v.closed.Terms
}

// sideBySide puts the two totals and the two breakdowns next to each other
// where there is room for both (the stylesheet's .grid columns are for
// short items).
const sideBySide = "repeat(auto-fit, minmax(min(100%, 22rem), 1fr))"

// closedRegime is safe without a closed form: app.If evaluates its body
// whatever the condition.
func closedRegime(v *simView) string {
	if v.closed == nil {
		return ""
	}
	return v.closed.Regime
}

func (p *simulatePage) renderClosedTotal(v *simView) app.UI {
	switch {
	case v.isTrace:
		return app.P().ID("closed-total").Class("note").Text("none: a trace has no formula")
	case v.closed == nil:
		return app.P().ID("closed-total").Class("error").Text(v.closedErr)
	}
	return app.P().Class("total").Body(
		app.Span().ID("closed-total").DataSet("seconds", strconv.FormatFloat(v.closed.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(v.closed.Seconds)),
	)
}

func countsTable(v *simView) app.UI {
	c := v.counts
	rows := []struct {
		id, name string
		n        int64
	}{
		{"accesses", "accesses", c.Accesses},
		{"reads", "reads", c.Reads},
		{"writes", "writes", c.Writes},
		{"hits", "hits", c.Hits},
		{"misses", "misses (line fills)", c.Misses},
		{"writebacks", "write-backs", c.Writebacks},
		{"seq", "sequential transfers (B/β1)", c.SeqTransfers},
		{"rand", "random transfers (B/β2)", c.RandTransfers},
		{"branches", "branches", c.Branches},
		{"mispredictions", "mispredictions", c.Mispredictions},
	}
	if v.isTrace {
		rows = append(rows, struct {
			id, name string
			n        int64
		}{"records", "trace records", v.stats.Records})
	}
	return app.Div().Class("table-wrap").Style("max-width", "40rem").Body(app.Table().ID("counts").Class("terms").Body(
		app.Caption().Text("Counts"),
		app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("Event"), app.Th().Scope("col").Text("Count"))),
		app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
			r := rows[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(r.name),
				app.Td().ID("count-"+r.id).Class("num").DataSet("value", strconv.FormatInt(r.n, 10)).Text(groupDigits(r.n)),
			)
		})),
	))
}

// inputWork says what the wall time includes besides simulating.
func (v *simView) inputWork() string {
	if v.isTrace {
		return "reading the file included"
	}
	return "data generation included"
}
