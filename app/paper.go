package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/presets"
)

// paperPage replicates the MBRAM paper: every printed prediction of Figs. 3, 4
// and 5 beside memwall's value with the reason where they differ, the
// story of Fig. 1 (the two-pass permutation product loses on the older
// Pentiums and wins on the Pentium 4s), and one kernel drawn across every
// machine of the user's library. The kernel of the last chart is the only
// state, kept in the URL fragment (kernel=...).
type paperPage struct {
	app.Compo

	lib      library
	rep      replicationView
	fig1     fig1View
	across   acrossView
	choice   string // acrossPair or a kernel id
	linkMsgs []string
}

func (p *paperPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *paperPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
	p.writeURL(ctx)
}

func (p *paperPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Paper", "The MBRAM paper (Cooperman, Ma and Nguyen) recomputed: every printed prediction of Figs. 3, 4 and 5 beside memwall's, the reason where they differ, and one kernel across several machines.")
	p.lib = loadLibrary(ctx)
	p.load(fragment)
}

// load reads the fragment and builds every view; it is init without the
// page context, for tests.
func (p *paperPage) load(fragment string) {
	vals, msgs := parseLink(fragment, []string{"kernel"})
	p.linkMsgs = msgs
	p.choice = acrossPair
	if k, ok := vals["kernel"]; ok {
		if validAcross(k) {
			p.choice = k
		} else {
			p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("kernel: no kernel is called %s; showing the permutation products", quoteShort(k)))
		}
	}
	if p.lib.Presets == nil {
		p.lib = library{Presets: presets.Machines()}
	}
	p.rep = buildReplication()
	p.fig1 = buildFig1(p.rep)
	p.across = buildAcross(p.choice, p.machines())
}

func (p *paperPage) machines() []machine.Machine {
	return append(append([]machine.Machine(nil), p.lib.Presets...), p.lib.User...)
}

// writeURL keeps the chosen kernel in the address; the default needs none.
func (p *paperPage) writeURL(ctx app.Context) {
	frag := ""
	if p.choice != acrossPair {
		frag = linkFragment([][2]string{{"kernel", p.choice}})
	}
	cur := ctx.Page().URL()
	if cur == nil {
		return
	}
	if u, err := pageLink(cur, frag); err == nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *paperPage) onAcross(ctx app.Context, e app.Event) {
	if v := inputValue(ctx); validAcross(v) {
		p.choice = v
		p.across = buildAcross(p.choice, p.machines())
		p.writeURL(ctx)
	}
}

func (p *paperPage) Render() app.UI {
	return shell("/paper",
		app.H1().Text("Paper"),
		app.P().Class("lead").Text("The MBRAM paper (G. Cooperman, X. Ma and V. H. Nguyen, Static Performance Evaluation for Memory-Bound Computing: the MBRAM Model, PDPTA 2004) printed its predictions for four Pentiums. memwall recomputes each one from the paper's formulas and the machine parameters of its Fig. 2."),
		app.Div().ID("lower-bound").Class("callout warn").Body(
			app.P().Text("Every formula here is a lower bound by construction: the model charges nothing for hits in the smaller caches, for TLB misses or for instructions (the MBRAM paper, section II), so a measured time should be at or above its prediction."),
			app.If(len(p.rep.Notes) > 0,
				app.P().Text("Where memwall's value and the printed one differ by more than rounding, memwall follows these readings of the formulas; the numbers are the footnotes of the table:"),
				app.Ul().ID("readings").Body(app.Range(p.rep.Notes).Slice(func(i int) app.UI {
					n := p.rep.Notes[i]
					return app.Li().Body(
						app.A().Href("#note-"+strconv.Itoa(n.N)).Text("["+strconv.Itoa(n.N)+"]"),
						app.Text(" "+n.Reading),
					)
				})),
			),
		),
		linkProblems(p.linkMsgs),
		p.renderReplication(),
		p.renderFig1(),
		p.renderAcross(),
	)
}

func (p *paperPage) renderReplication() app.UI {
	sec := app.Section().ID("replication").Class("panel").Aria("label", "Printed predictions")
	v := p.rep
	if v.Err != "" {
		return sec.Body(app.H2().Text("Figs. 3, 4 and 5"), app.P().Class("error").Text(v.Err))
	}
	differ := len(v.Rows) - v.Agree
	return sec.Body(
		app.H2().Text("Figs. 3, 4 and 5: printed predictions beside memwall's"),
		app.P().ID("replication-summary").Text(fmt.Sprintf("%d printed predictions: %d agree with memwall to the printed precision, %d differ by more than rounding, for the %d reasons under the table. Each kernel opens that calculation on the Kernels page.",
			len(v.Rows), v.Agree, differ, len(v.Notes))),
		app.Div().Class("table-wrap").Body(app.Table().ID("replication-table").Body(
			app.Caption().Text("The MBRAM paper's Figs. 3–5 recomputed (times in seconds)"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Figure"),
				app.Th().Scope("col").Text("Machine"),
				app.Th().Scope("col").Text("Kernel"),
				app.Th().Scope("col").Text("N or n"),
				numTh().Text("Measured"),
				numTh().Text("Printed"),
				numTh().Text("memwall"),
				numTh().Text("Difference"),
				app.Th().Scope("col").Text("Agree"),
			)),
			app.TBody().Body(app.Range(v.Rows).Slice(func(i int) app.UI {
				r := v.Rows[i]
				kernel := app.UI(app.Text(r.KernelName))
				if r.Link != "" {
					kernel = app.A().Class("open-kernel").Href(r.Link).Title("Open this calculation on the Kernels page").Text(r.KernelName)
				}
				agree := app.UI(app.Text("yes"))
				if !r.Matches {
					agree = app.Span().Body(
						app.Text("no "),
						app.A().Href("#note-"+strconv.Itoa(r.Note)).Aria("label", "reason "+strconv.Itoa(r.Note)).Text("["+strconv.Itoa(r.Note)+"]"),
					)
				}
				return app.Tr().
					DataSet("figure", r.Figure).DataSet("kernel", r.Kernel).DataSet("machine", r.Machine).DataSet("n", strconv.FormatInt(r.Params.N, 10)).
					Body(
						app.Th().Scope("row").Text(r.Figure),
						app.Td().Text(r.MachineName),
						app.Td().Body(kernel),
						app.Td().Class("num").Text(r.sizeText()),
						app.Td().Class("num measured").Text(r.measuredText()),
						app.Td().Class("num printed").Text(r.printedText()),
						app.Td().Class("num engine").Text(r.engineText()),
						app.Td().Class("num diff").Text(r.diffText()),
						app.Td().Class("agree").Body(agree),
					)
			})),
		)),
		app.Ol().ID("notes").Class("notes").Body(app.Range(v.Notes).Slice(func(i int) app.UI {
			n := v.Notes[i]
			return app.Li().ID("note-" + strconv.Itoa(n.N)).Value(n.N).Body(
				app.Text(n.Reason + " (" + plural(int64(n.Rows), "row", "rows") + ".)"),
			)
		})),
		app.P().Class("note").Body(
			app.Text("Measured and printed times are given to the MBRAM paper's precision, memwall's to one more digit; a row agrees when both round to the same printed value. The command line prints the same table: "),
			app.Code().Text("memwall replicate mbram"),
			app.Text("."),
		),
	)
}

func (p *paperPage) renderFig1() app.UI {
	sec := app.Section().ID("fig1").Class("panel").Aria("label", "One kernel across four machines")
	v := p.fig1
	if v.Err != "" {
		return sec.Body(app.H2().Text("Fig. 1"), app.P().Class("error").Text(v.Err))
	}
	return sec.Body(
		app.H2().Text("Fig. 1: the same program on four generations of Pentium"),
		app.P().Text("The traditional permutation product Z[i] = Y[X[i]] fetches a cache line from a random place for every element; the two-pass algorithm streams everything through the cache three times instead. Which is faster depends on the machine: on the ratio of sequential to random bandwidth and on the line size."),
		app.P().ID("fig1-verdict").Class("verdict").Aria("live", "polite").Text(v.Sentence),
		&chart{ID: "fig1-chart", Label: "Predicted time of the traditional and the two-pass permutation product for N = 2^20 on four Pentiums, oldest to newest, with the MBRAM paper's measured times as markers", Option: v.Option, Height: 360},
		app.Div().Class("table-wrap").Body(app.Table().ID("fig1-table").Body(
			app.Caption().Text("Permutation product of N = 2^20 four-byte elements"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Machine"),
				numTh().Text("Traditional, predicted"),
				numTh().Text("Two-pass, predicted"),
				numTh().Text("Traditional, measured"),
				numTh().Text("Two-pass, measured"),
				app.Th().Scope("col").Text("Two-pass"),
			)),
			app.TBody().Body(app.Range(v.Rows).Slice(func(i int) app.UI {
				r := v.Rows[i]
				verdict := "loses"
				if r.Wins {
					verdict = "wins"
				}
				return app.Tr().DataSet("machine", r.Machine.ID).Body(
					app.Th().Scope("row").Text(r.Machine.Name),
					app.Td().Class("num").Text(units.FormatSeconds(r.Trad)),
					app.Td().Class("num").Text(units.FormatSeconds(r.TwoPass)),
					app.Td().Class("num").Text(secondsOrDash(r.MTrad)),
					app.Td().Class("num").Text(secondsOrDash(r.MTwoPass)),
					app.Td().Text(verdict),
				)
			})),
		)),
		app.P().Class("note").Text("Bars: memwall's predictions with the stated N = 2^20 (footnotes 1 and 2 above explain why the printed column differs). Diamonds: the times the MBRAM paper measured."),
	)
}

func secondsOrDash(s float64) string {
	if s <= 0 {
		return "—"
	}
	return units.FormatSeconds(s)
}

func (p *paperPage) renderAcross() app.UI {
	a := p.across
	return app.Section().ID("across").Class("panel").Aria("label", "One kernel across your machines").Body(
		app.H2().Text("One kernel across your machines"),
		app.P().Text("Predicted time against N on every machine in your library: the presets and the machines you added on the Machines page."),
		selectField("across-kernel", "Kernel", p.choice, acrossOptions(), p.onAcross),
		&chart{ID: "across-chart", Label: "Predicted time against N, log-log, one line per machine" + acrossLabelTail(p.choice), Option: a.Option, Height: 440},
		app.P().ID("across-time").Class("note").Text(fmt.Sprintf("%d predictions on %d machines%s.", a.Points, a.Machines, computedIn(a.Millis))),
	)
}

func acrossLabelTail(choice string) string {
	if choice == acrossPair {
		return " and kernel: two-pass solid, traditional dashed"
	}
	return ""
}
