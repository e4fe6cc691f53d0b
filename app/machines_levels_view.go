package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
)

// renderAddLevels offers a machine of six numbers its cache levels. It
// comes after the form's Save and Cancel, so the six-number editor reads
// as it always did.
func (p *machinesPage) renderAddLevels() app.UI {
	return app.P().Class("note").Body(
		app.Button().Type("button").ID("add-levels").Text("Give the cache levels…").OnClick(p.onAddLevels),
		app.Text(" for the hierarchy model, which estimates a time level by level."),
	)
}

// renderLevels is the editor's part for the hierarchy: the level rows with
// their buttons, the memory latency and compute rate, and the core rates
// (measured per kernel, kept as they are).
func (p *machinesPage) renderLevels() app.UI {
	rows := make([]app.UI, p.editLevels)
	for i := range rows {
		name := strings.TrimSpace(p.edit.text[levelKey(i, "name")])
		legend := "Level " + strconv.Itoa(i+1)
		if name != "" {
			legend += " (" + name + ")"
		}
		if i == p.editLevels-1 {
			legend += ": the machine's cache C, line B"
		}
		rows[i] = app.FieldSet().ID("level-"+strconv.Itoa(i)).Class("level-row").Body(
			app.Legend().Text(legend),
			p.fieldGrid("grid level-grid", levelFields, levelKey(i, ""), 12),
			app.Div().Class("row actions").Body(
				app.If(p.editLevels < machine.MaxLevels,
					app.Button().Type("button").ID("insert-level-"+strconv.Itoa(i)).Text("Insert a level above").OnClick(p.onInsertLevel(i)),
				),
				app.Button().Type("button").Class("danger").ID("remove-level-"+strconv.Itoa(i)).Text("Remove this level").
					Aria("label", "Remove level "+strconv.Itoa(i+1)).OnClick(p.onRemoveLevel(i)),
			),
		)
	}
	return app.Div().ID("levels-editor").Body(
		app.If(p.editLevels > 0,
			app.H3().Text("Cache levels"),
			app.P().Class("note").Text("From the core out. Each level's β1 and β2 are the bandwidths of filling it from the level below (memory, for the last); the last level is the machine's cache, so C and B are its size and line. Going out, levels grow, and lines and the number of lines do not shrink."),
			app.If(p.editErrs["levels"] != "", app.P().ID("m-levels-err").Class("error").Text(p.editErrs["levels"])),
			app.Div().Body(rows...),
			app.If(p.editLevels < machine.MaxLevels,
				app.Button().Type("button").ID("add-level").Text("Add a level below the last").OnClick(p.onInsertLevel(p.editLevels)),
			),
		),
		app.If(p.showHierFields(),
			p.fieldGrid("grid", hierFields, "", 14),
		),
		app.If(len(p.editBase.CoreRates) > 0,
			app.P().ID("m-core-rates").Class("note").Text("Core rates, measured per kernel and kept as they are: "+coreRatesText(p.editBase.CoreRates)+"."),
		),
		app.If(p.editErrs["core_rates"] != "", app.P().ID("m-core_rates-err").Class("error").Text(p.editErrs["core_rates"])),
		app.If(len(p.editBase.Distribution) > 0,
			app.P().ID("m-distribution").Class("note").Text("Distribution curve, measured and kept as it is: "+distributionText(p.editBase.Distribution)+"."),
		),
		app.If(len(p.editBase.FewBuckets) > 0,
			app.P().ID("m-few-buckets").Class("note").Text("Few-bucket curve, measured and kept as it is: "+fewBucketsText(p.editBase.FewBuckets)+"."),
		),
		app.If(len(p.editBase.MemLatencyCurve) > 0,
			app.P().ID("m-latency-curve").Class("note").Text("Memory latency by span, measured and kept as it is: "+latencyCurveText(p.editBase.MemLatencyCurve)+"; the hierarchy model reads memory's latency from it, not from the field above."),
		),
		app.If(p.editErrs["mem_latency_curve"] != "", app.P().ID("m-mem_latency_curve-err").Class("error").Text(p.editErrs["mem_latency_curve"])),
		app.If(p.editErrs["distribution"] != "", app.P().ID("m-distribution-err").Class("error").Text(p.editErrs["distribution"])),
	)
}

// fieldGrid is the editor's fields in a grid: one text field per entry of
// fields, its key prefix and the field's key.
func (p *machinesPage) fieldGrid(class string, fields []struct{ key, label, hint string }, prefix string, size int) app.UI {
	ui := make([]app.UI, len(fields))
	for j, f := range fields {
		key := prefix + f.key
		ui[j] = textField{ID: "m-" + key, Label: f.label, Value: p.edit.shown[key], Hint: f.hint, Err: p.editErrs[key], OnInput: p.onEditField(key), Size: size}.UI()
	}
	return app.Div().Class(class).Body(ui...)
}
