package app

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/scenario"
	"memwall/engine/units"
	"memwall/presets"
)

func (p *machinesPage) Render() app.UI {
	return shell("/machines",
		app.H1().Text("Machines"),
		app.P().Class("lead").Text("A machine is six numbers (the MBRAM paper, section II): the sequential and random-access bandwidths of memory, how many sequential streams run at full speed, the largest cache and its line, and the cost of a mispredicted branch. A machine may also give its cache levels, for the hierarchy model. Your machines stay in this browser; export them to keep or share them."),
		app.If(p.problem != "", app.P().Class("callout warn").Text(p.problem)),
		app.If(p.notice != "", app.P().ID("notice").Class("notice").Aria("live", "polite").Text(p.notice)),
		p.renderUser(),
		app.If(p.editing, p.renderEditor()),
		p.renderDerive(),
		&measureDevice{page: p},
		app.Section().ID("presets").Class("panel").Body(
			app.H2().Text("Presets"),
			p.machineTable("preset-table", p.lib.Presets, false),
			app.P().ID("symbols").Class("note").Text("β1: sequential bandwidth from memory. β2: random-access bandwidth, a whole line fetched from a random place. μ1: sequential streams that run at full speed at once. C: the largest cache. B: its line size. m: the time lost on a mispredicted branch."),
		),
		app.Section().Class("panel").Body(
			app.H2().Text("Bandwidths compared"),
			p.bandwidthChart(),
		),
	)
}

func (p *machinesPage) renderUser() app.UI {
	return app.Section().ID("user-machines").Class("panel").Body(
		app.H2().Text("My machines"),
		app.If(len(p.lib.User) == 0, app.P().Text("None yet: add one, copy a preset, derive one from specifications, or import a file (memwall's JSON, or a Kerncraft machine file in YAML).")).
			Else(p.machineTable("user-table", p.lib.User, true)),
		app.Div().Class("row actions").Body(
			app.Button().ID("new-machine").Text("New machine").OnClick(p.onNew),
			app.Label().Class("button").For("import-file").Text("Import from file…"),
			app.Input().ID("import-file").Type("file").Accept(".json,.yml,.yaml,application/json,application/yaml").Class("visually-hidden").OnChange(p.onImport),
			app.If(len(p.lib.User) > 0, app.Button().ID("export-all").Text("Export all").OnClick(p.onExportAll)),
		),
		importReport(p.importMsgs, goodLabel(len(p.importPending), fmt.Sprintf("Import the %d good machine(s)", len(p.importPending))), p.onImportGood, p.onImportCancel, ""),
	)
}

func (p *machinesPage) machineTable(id string, ms []machine.Machine, user bool) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().ID(id).Class("machines").Body(
		colHeads("Machine", "β1", "β2", "μ1", "C", "B", "m", "Actions"),
		app.TBody().Body(p.machineRows(ms, user)...),
	))
}

// machineRows are a table's rows: one per machine, and under a machine
// that gives its cache levels a second row that shows them.
func (p *machinesPage) machineRows(ms []machine.Machine, user bool) []app.UI {
	var rows []app.UI
	for _, m := range ms {
		editLabel := "Copy and edit"
		if user {
			editLabel = "Edit"
		}
		deleteLabel := "Delete"
		if p.confirmDelete == m.ID {
			deleteLabel = "Really delete?"
		}
		cells := []app.UI{app.Th().Scope("row").Body(
			app.Span().Text(m.Name),
			app.If(m.Source != "", app.Small().Class("source").Text(m.Source)),
		)}
		cells = append(cells, numCells(units.FormatBandwidth(m.Beta1), units.FormatBandwidth(m.Beta2), strconv.Itoa(m.Mu1),
			units.FormatSize(m.C), units.FormatSize(m.B), units.FormatSeconds(m.M))...)
		cells = append(cells, app.Td().Class("actions").Body(
			app.A().Class("button").Href(useLink(m)).Text("Use").Aria("label", "Use "+m.Name+" on the Kernels page"),
			app.Button().Text(editLabel).OnClick(p.onEdit(m.ID)).Aria("label", editLabel+" "+m.Name),
			app.If(user,
				app.Button().Text("Export").OnClick(p.onExport(m.ID)).Aria("label", "Export "+m.Name),
				app.Button().Class("danger").Text(deleteLabel).OnClick(p.onDelete(m.ID)).Aria("label", deleteLabel+" "+m.Name),
			),
		))
		rows = append(rows, app.Tr().DataSet("id", m.ID).Body(cells...))
		if hasHierarchy(m) {
			rows = append(rows, app.Tr().Class("levels-row").DataSet("levels-of", m.ID).Body(
				app.Td().ColSpan(8).Body(levelsView("levels-"+m.ID, m)),
			))
		}
	}
	return rows
}

// useLink opens the Kernels page on a machine: by id for a preset, inline
// for the user's own, through the same share-link form as everywhere else.
func useLink(m machine.Machine) string {
	s := scenario.Default(presets.Machine)
	s.Machine = m
	frag, err := s.Fragment(presets.Machine)
	if err != nil {
		return Href("/")
	}
	return Href("/") + "#" + frag
}

func (p *machinesPage) renderEditor() app.UI {
	title := "New machine"
	if p.editID != "" {
		title = "Edit " + p.edit.text["name"]
	}
	fields := machineFields
	if p.editLevels > 0 {
		// C and B are the last level's size and line.
		fields = nil
		for _, f := range machineFields {
			if f.key != "cache" && f.key != "line" {
				fields = append(fields, f)
			}
		}
	}
	return app.Section().ID("editor").Class("panel").Body(
		app.H2().Text(title),
		app.Form().ID("machine-form").OnSubmit(p.onSave).Body(
			p.fieldGrid("grid", fields, "", 22),
			p.renderLevels(),
			app.Div().Class("row actions").Body(
				app.Button().ID("save-machine").Type("submit").Text("Save"),
				app.Button().Type("button").ID("cancel-edit").Text("Cancel").OnClick(p.onCancel),
			),
			app.If(p.editLevels == 0, p.renderAddLevels()),
		),
	)
}

func (p *machinesPage) renderDerive() app.UI {
	return app.Section().ID("derive").Class("panel").Body(
		app.H2().Text("Derive from specifications"),
		app.P().Text("The MBRAM paper, section III.A: a bus of w bytes at f transfers per second gives β1 = w·f; a latency of c cycles gives λ = c/f and β2 = B/(λ + B/β1); a pipeline of s stages at clock F gives m = s/F. The values shown are the 2.66 GHz Pentium 4 with DDR-266 of the MBRAM paper."),
		app.Form().ID("derive-form").OnSubmit(p.onDerive).Body(
			app.Div().Class("grid").Body(
				app.Range(specFields).Slice(func(i int) app.UI {
					f := specFields[i]
					return textField{ID: "s-" + f.key, Label: f.label, Value: p.spec.shown[f.key], Hint: f.hint, Err: p.specErrs[f.key], OnInput: p.onSpecField(f.key), Size: 14}.UI()
				}),
			),
			app.Button().ID("derive-button").Type("submit").Text("Derive and edit"),
		),
	)
}

func (p *machinesPage) bandwidthChart() app.UI {
	ms := append(append([]machine.Machine(nil), p.lib.Presets...), p.lib.User...)
	return &chart{ID: "bandwidth-chart", Label: "Sequential and random-access bandwidth of every machine", Summary: bandwidthSummary(ms), Option: bandwidthOption(ms), Height: 360}
}

// bandwidthSummary says what the bandwidth chart shows in words.
func bandwidthSummary(ms []machine.Machine) string {
	if len(ms) == 0 {
		return ""
	}
	lo, hi := ms[0], ms[0]
	for _, m := range ms {
		if m.Beta1 < lo.Beta1 {
			lo = m
		}
		if m.Beta1 > hi.Beta1 {
			hi = m
		}
	}
	return fmt.Sprintf("%s: β1 from %s (%s) to %s (%s); β2, a line from a random place, is below β1 on every machine.",
		plural(int64(len(ms)), "machine", "machines"), units.FormatBandwidth(lo.Beta1), lo.Name, units.FormatBandwidth(hi.Beta1), hi.Name)
}

// logBounds is the decade range [10^a, 10^b] around the positive values,
// so a log axis spans the data and not ECharts' default decades.
func logBounds(vs ...float64) (lo, hi float64) {
	for _, v := range vs {
		if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		if lo == 0 || v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	if lo == 0 {
		return 1, 10
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

// bandwidthOption draws β1 and β2 of each machine on a log axis.
func bandwidthOption(ms []machine.Machine) string {
	names := make([]string, len(ms))
	b1 := make([]float64, len(ms))
	b2 := make([]float64, len(ms))
	for i, m := range ms {
		names[i], b1[i], b2[i] = m.Name, m.Beta1, m.Beta2
	}
	lo, hi := logBounds(append(append([]float64(nil), b1...), b2...)...)
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"top": 4, "left": 0},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@bandwidth"},
		"grid":      map[string]any{"left": 8, "right": 24, "top": 48, "bottom": 8, "containLabel": true},
		"xAxis":     map[string]any{"type": "log", "min": lo, "max": hi, "axisLabel": map[string]any{"formatter": "@bandwidth"}},
		"yAxis":     map[string]any{"type": "category", "inverse": true, "data": names, "axisLabel": map[string]any{"width": 200, "overflow": "truncate"}},
		"series": []any{
			map[string]any{"type": "bar", "name": "β1 sequential", "data": b1},
			map[string]any{"type": "bar", "name": "β2 random", "data": b2},
		},
	})
}
