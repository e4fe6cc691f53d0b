package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// Tables and table cells shared by the pages.

func termsTable(id, caption string, terms []mbram.Term, total float64) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().ID(id).Class("terms").Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Term"),
			app.Th().Scope("col").Text("Time"),
			app.Th().Scope("col").Text("Formula"),
		)),
		app.TBody().Body(app.Range(terms).Slice(func(i int) app.UI {
			t := terms[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(t.Name),
				app.Td().Class("num").DataSet("seconds", strconv.FormatFloat(t.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(t.Seconds)),
				app.Td().Body(app.Code().Text(t.Formula)),
			)
		})),
		app.TFoot().Body(app.Tr().Body(
			app.Th().Scope("row").Text("Total"),
			app.Td().Class("num").Text(units.FormatSeconds(total)),
			app.Td(),
		)),
	))
}

func phasesTable(phases []sim.Phase) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().ID("phases").Class("terms").Body(
		app.Caption().Text("Phases (marked by the kernel)"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Phase"),
			app.Th().Scope("col").Text("Time"),
			app.Th().Scope("col").Text("Accesses"),
			app.Th().Scope("col").Text("Misses"),
			app.Th().Scope("col").Text("Write-backs"),
		)),
		app.TBody().Body(app.Range(phases).Slice(func(i int) app.UI {
			ph := phases[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(ph.Name),
				app.Td().Class("num").Text(units.FormatSeconds(ph.Seconds)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Accesses)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Misses)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Writebacks)),
			)
		})),
	))
}

func countRow(label, key string, n int64) app.UI {
	return app.Tr().Body(app.Th().Scope("row").Text(label), app.Td().Class("num").DataSet("count", key).DataSet("value", n).Text(groupDigits(n)))
}

// colHeads is a table's head: one row of column names.
func colHeads(names ...string) app.UI {
	ths := make([]app.UI, len(names))
	for i, n := range names {
		ths[i] = app.Th().Scope("col").Text(n)
	}
	return app.THead().Body(app.Tr().Body(ths...))
}

// numCells are cells of numbers, as shown.
func numCells(vals ...string) []app.UI {
	tds := make([]app.UI, len(vals))
	for i, v := range vals {
		tds[i] = app.Td().Class("num").Text(v)
	}
	return tds
}

// numTh is a column header over numbers, aligned with them (the stylesheet
// right-aligns numeric cells only).
func numTh() app.HTMLTh {
	return app.Th().Scope("col").Class("num").Style("text-align", "right")
}
