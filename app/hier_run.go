package app

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/hier"
	"memwall/engine/units"
)

// hierarchyRun shows a run through the hierarchy simulator: its time,
// then each level's accesses, fills by kind, write-backs and time, the
// branches and what the time leaves out. id prefixes the element ids.
func hierarchyRun(id string, h *hier.Result) app.UI {
	dep := false
	for _, l := range h.Levels {
		dep = dep || l.Counts.DependentRandFills > 0
	}
	heads := []string{"Level", "Accesses", "Fills", "Random fills", "Dependent random", "Write-backs", "Time"}
	if !dep {
		heads = slices.Delete(heads, 4, 5)
	}
	rows := make([]app.UI, 0, len(h.Levels)+1)
	for _, l := range h.Levels {
		c := l.Counts
		cells := []string{groupDigits(c.Accesses), groupDigits(c.Misses), groupDigits(c.RandFills), groupDigits(c.DependentRandFills), groupDigits(c.Writebacks)}
		if !dep {
			cells = slices.Delete(cells, 3, 4)
		}
		row := append([]app.UI{app.Th().Scope("row").Text(l.Level.Name + " " + units.FormatSize(l.Level.Size))}, numCells(cells...)...)
		row = append(row, app.Td().Class("num").DataSet("seconds", strconv.FormatFloat(l.Time.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(l.Time.Seconds)))
		rows = append(rows, app.Tr().DataSet("level", l.Level.Name).Body(row...))
	}
	rows = append(rows, app.Tr().Body(app.Th().Scope("row").Text("Mispredictions"),
		app.Td().Class("num").ColSpan(len(heads)-2).Text(groupDigits(h.Mispredictions)+" × m"),
		app.Td().Class("num").Text(units.FormatSeconds(h.Branch))))
	if h.Ops > 0 {
		rows = append(rows, app.Tr().DataSet("row", "compute").Body(app.Th().Scope("row").Text("Operations"),
			app.Td().Class("num").ColSpan(len(heads)-2).Text(groupDigits(h.Ops)+" at the compute rate"),
			app.Td().Class("num").DataSet("seconds", strconv.FormatFloat(h.Compute, 'g', -1, 64)).Text(units.FormatSeconds(h.Compute))))
	}
	return app.Section().ID(id).Class("hier-run").Body(
		app.H3().Text("Hierarchy simulator"),
		app.P().Class("total").Body(
			app.Span().ID(id+"-seconds").DataSet("seconds", strconv.FormatFloat(h.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(h.Seconds)),
		),
		app.P().Class("note").Text(fmt.Sprintf("An estimate, not a bound: the same %s accesses through every cache level of the machine, each level's fills charged at its β1 when they continue a stream and at its β2 otherwise, its write-backs at β1, the last level's dependent random fills at the memory latency (%s of the accesses are dependent), each misprediction m, and the run's operations at the machine's compute rate.",
			groupDigits(h.Levels[0].Counts.Accesses), groupDigits(h.Dependent))),
		app.Div().Class("table-wrap").Body(app.Table().ID(id+"-levels").Class("counts").Body(
			app.Caption().Text("Each level: the accesses that reach it, its fills (the rest continue a stream) and write-backs"),
			colHeads(heads...),
			app.TBody().Body(rows...),
		)),
		app.If(h.Note != "", app.P().Class("note").Text("Note: "+h.Note+".")),
	)
}
