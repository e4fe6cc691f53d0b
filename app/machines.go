package app

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/scenario"
	"memwall/engine/units"
	"memwall/presets"
)

// machinesPage is the machine library: the presets with their sources, the
// user's own machines (kept in this browser), an editor, a helper that
// derives a machine from data-sheet numbers, and import and export as files.
type machinesPage struct {
	app.Compo

	lib     library
	notice  string
	problem string

	// editor
	editing  bool
	editID   string   // id of the user machine being edited, "" for a new one
	edit     formText // fields by machine JSON key
	editErrs map[string]string

	// derive helper
	spec     formText // fields by machine.Spec JSON key
	specErrs map[string]string

	// import
	importMsgs    []string
	importPending []machine.Machine

	confirmDelete string
}

// The editor's fields, in form order, with labels and hints.
var machineFields = []struct{ key, label, hint string }{
	{"name", "Name", ""},
	{"beta1", "β1, sequential bandwidth", "e.g. 2.12 GB/s"},
	{"beta2", "β2, random-access bandwidth", "a line from a random place; e.g. 0.95 GB/s"},
	{"mu1", "μ1, concurrent sequential streams", "usually 2"},
	{"cache", "C, largest cache", "e.g. 512 KiB, 32 MiB"},
	{"line", "B, its line size", "e.g. 64 B, 128 B"},
	{"mispredict", "m, branch-misprediction penalty", "e.g. 7.52 ns"},
	{"source", "Source of the numbers", "spec sheet, paper, measured by memwall calibrate, ..."},
	{"description", "Description", ""},
}

var specFields = []struct{ key, label, hint string }{
	{"bus_width", "Memory bus width", "bytes per transfer, e.g. 8 B"},
	{"bus_frequency", "Bus transfer rate", "e.g. 266 MHz for DDR-266"},
	{"latency_cycles", "Memory latency (bus cycles)", "e.g. 10"},
	{"latency_clock", "Clock of those cycles", "empty: the transfer rate; e.g. 133 MHz"},
	{"pipeline_stages", "Misprediction pipeline (stages)", "e.g. 20"},
	{"cpu_clock", "CPU clock", "e.g. 2.66 GHz"},
	{"cache", "Largest cache", "e.g. 512 KiB"},
	{"line", "Cache line", "e.g. 128 B"},
}

func (p *machinesPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }
func (p *machinesPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
}

// init loads the library. A fragment with an inline machine (the Kernels
// page's "edit" link) opens the editor on that machine.
func (p *machinesPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Machines", "The machine library of memwall: MBRAM parameters of preset machines with their sources, your own machines, and a helper that derives them from specifications.")
	p.lib = loadLibrary(ctx)
	p.problem = strings.Join(p.lib.Problems, "; ")
	p.spec = formText{prefix: "s-"}
	p.spec.set(ctx, map[string]string{"bus_width": "8 B", "bus_frequency": "266 MHz", "latency_cycles": "10", "latency_clock": "133 MHz",
		"pipeline_stages": "20", "cpu_clock": "2.66 GHz", "cache": "512 KiB", "line": "128 B"})
	p.specErrs = map[string]string{}
	p.editing = false
	if fragment != "" {
		s, probs := scenario.ParseFragment(fragment, scenario.Default(presets.Machine), presets.Machine)
		if len(probs) == 0 && s.Machine.ID == "" {
			p.openEditor(ctx, "", s.Machine)
		}
	}
}

func (p *machinesPage) openEditor(ctx app.Context, id string, m machine.Machine) {
	p.editing, p.editID = true, id
	vals := map[string]string{
		"name": m.Name, "description": m.Description, "source": m.Source,
		"beta1": units.FieldBandwidth(m.Beta1), "beta2": units.FieldBandwidth(m.Beta2),
		"mu1": strconv.Itoa(m.Mu1), "cache": units.FieldSize(m.C), "line": units.FieldSize(m.B),
		"mispredict": units.FieldSeconds(m.M),
	}
	// A number the machine lacks (an import that cannot give it) is an
	// empty field to fill, not a zero to correct.
	for key, v := range map[string]float64{"beta1": m.Beta1, "beta2": m.Beta2, "mispredict": m.M} {
		if v == 0 {
			vals[key] = ""
		}
	}
	p.edit = formText{prefix: "m-"}
	p.edit.set(ctx, vals)
	p.editErrs = map[string]string{}
	p.readEditor()
}

// readEditor parses the editor's fields and validates the machine. It
// returns the machine and whether it is good; each bad field gets a message.
func (p *machinesPage) readEditor() (machine.Machine, bool) {
	p.editErrs = map[string]string{}
	m := machine.Machine{ID: p.editID, Name: strings.TrimSpace(p.edit.text["name"]),
		Description: strings.TrimSpace(p.edit.text["description"]), Source: strings.TrimSpace(p.edit.text["source"])}
	parse := func(key string, f func(string) error) {
		if err := f(strings.TrimSpace(p.edit.text[key])); err != nil {
			p.editErrs[key] = err.Error()
		}
	}
	parse("beta1", func(s string) (err error) { m.Beta1, err = units.ParseBandwidth(s); return })
	parse("beta2", func(s string) (err error) { m.Beta2, err = units.ParseBandwidth(s); return })
	parse("mu1", func(s string) error {
		n, err := units.ParseCount(s)
		if err == nil && n > machine.MaxMu1 {
			return fmt.Errorf("at most %d streams", machine.MaxMu1)
		}
		m.Mu1 = int(n)
		return err
	})
	parse("cache", func(s string) (err error) { m.C, err = units.ParseSize(s); return })
	parse("line", func(s string) (err error) { m.B, err = units.ParseSize(s); return })
	if _, bad := p.editErrs["line"]; !bad && strings.Contains(p.edit.text["cache"], ".") {
		// A cache typed as shown, rounded ("10.42 MiB"): the nearest
		// whole number of lines.
		m.C = machine.NearestLines(m.C, m.B)
	}
	parse("mispredict", func(s string) (err error) { m.M, err = units.ParseDuration(s); return })
	if m.Name == "" {
		p.editErrs["name"] = "give the machine a name"
	} else if len(m.Name) > 200 {
		p.editErrs["name"] = "a name may have at most 200 bytes"
	}
	if len(p.editErrs) > 0 {
		return m, false
	}
	if err := m.Validate(); err != nil {
		var es machine.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				p.editErrs[e.Field] = e.Msg
			}
		} else {
			p.editErrs["name"] = err.Error()
		}
		return m, false
	}
	return m, true
}

func (p *machinesPage) onEditField(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.edit.typed(key, inputValue(ctx))
		p.readEditor()
	}
}

func (p *machinesPage) onSave(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.edit.settle()
	m, ok := p.readEditor()
	if !ok {
		p.notice = "Not saved: fix the marked fields."
		focusInvalid("machine-form")
		return
	}
	if m.Source == "" {
		m.Source = "user"
	}
	m = p.lib.put(m)
	if err := p.lib.save(ctx); err != nil {
		p.notice = err.Error()
		return
	}
	p.editing = false
	p.notice = "Saved " + m.Name + " in this browser."
}

func (p *machinesPage) onNew(ctx app.Context, e app.Event) {
	p.openEditor(ctx, "", machine.Machine{Name: "My machine", Beta1: 10e9, Beta2: 2e9, Mu1: 2, C: 8 << 20, B: 64, M: 5e-9, Source: "user"})
	p.notice = ""
	focusFirst("editor")
}

func (p *machinesPage) onEdit(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if m, ok := p.lib.find(id); ok {
			if strings.HasPrefix(id, userPrefix) {
				p.openEditor(ctx, id, m)
			} else {
				m.Name += " (copy)"
				m.Source = "edited from preset " + m.ID + ": " + m.Source
				p.openEditor(ctx, "", m)
			}
			p.notice = ""
			focusFirst("editor")
		}
	}
}

func (p *machinesPage) onCancel(ctx app.Context, e app.Event) { p.editing = false }

func (p *machinesPage) onDelete(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if p.confirmDelete != id {
			p.confirmDelete = id
			return
		}
		p.confirmDelete = ""
		p.lib.remove(id)
		if err := p.lib.save(ctx); err != nil {
			p.notice = err.Error()
			return
		}
		p.notice = "Deleted."
	}
}

func (p *machinesPage) onExport(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if m, ok := p.lib.find(id); ok {
			download(m.ID+".json", "application/json", m.JSON())
		}
	}
}

func (p *machinesPage) onExportAll(ctx app.Context, e app.Event) {
	download("memwall-machines.json", "application/json", machinesFile(p.lib.User))
}

func (p *machinesPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.importMsgs, p.importPending, p.notice = nil, nil, ""
		if err != nil {
			p.importMsgs = []string{err.Error()}
			return
		}
		if isKerncraft(name, data) {
			p.importKerncraft(ctx, name, data)
			return
		}
		good, bad := parseMachines(data)
		if len(bad) == 0 {
			p.addImported(ctx, good)
			return
		}
		p.importMsgs = append([]string{name + ":"}, bad...)
		p.importPending = good
	})
}

// isKerncraft says a picked file is a Kerncraft machine file (YAML) rather
// than memwall machines (JSON): by its name, or by not starting as JSON.
func isKerncraft(name string, data []byte) bool {
	n := strings.ToLower(name)
	if strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml") {
		return true
	}
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] != '{' && t[0] != '['
}

// importKerncraft opens the editor on what a Kerncraft machine file gives
// (B, C, β1) and asks for the rest: such files have no random-access
// bandwidth or misprediction penalty.
func (p *machinesPage) importKerncraft(ctx app.Context, name string, data []byte) {
	k, err := machine.ParseKerncraft(data)
	if err != nil {
		p.importMsgs = []string{name + ": " + err.Error()}
		return
	}
	m, _ := k.Machine(machine.Machine{})
	p.openEditor(ctx, "", m)
	read := fmt.Sprintf("B = %s and C = %s (%s)", units.FormatSize(k.Line), units.FormatSize(k.Cache), k.CacheLevel)
	if k.Beta1 > 0 {
		read += fmt.Sprintf(", β1 = %s (%s from memory, one core)", units.FormatBandwidth(k.Beta1), k.Beta1Kernel)
	}
	lacks, ask := "", "β2 and m"
	if k.Beta1 == 0 {
		lacks, ask = ", and this one no bandwidth measured from memory", "β1, β2 and m"
	}
	p.notice = fmt.Sprintf("Read %s from the Kerncraft machine file %s. Kerncraft files have no random-access bandwidth or branch misprediction penalty%s: enter %s, then save.",
		read, name, lacks, ask)
	ctx.ScrollTo("editor")
}

// onImportGood imports the good machines of a file that also had bad ones,
// once the user has seen what was wrong and agreed.
func (p *machinesPage) onImportGood(ctx app.Context, e app.Event) {
	good := p.importPending
	p.importMsgs, p.importPending = nil, nil
	p.addImported(ctx, good)
}

func (p *machinesPage) onImportCancel(ctx app.Context, e app.Event) {
	p.importMsgs, p.importPending = nil, nil
}

func (p *machinesPage) addImported(ctx app.Context, ms []machine.Machine) {
	for _, m := range ms {
		p.lib.put(m)
	}
	if err := p.lib.save(ctx); err != nil {
		p.notice = err.Error()
		return
	}
	p.notice = fmt.Sprintf("Imported %d machine(s).", len(ms))
}

func (p *machinesPage) onSpecField(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.spec.typed(key, inputValue(ctx)) }
}

// onDerive applies the MBRAM paper's section III.A to the data-sheet numbers and
// opens the editor on the result.
func (p *machinesPage) onDerive(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.spec.settle()
	p.specErrs = map[string]string{}
	var s machine.Spec
	parse := func(key string, f func(string) error) {
		t := strings.TrimSpace(p.spec.text[key])
		if t == "" && key == "latency_clock" {
			return
		}
		if err := f(t); err != nil {
			p.specErrs[key] = err.Error()
		}
	}
	parse("bus_width", func(v string) (err error) { s.BusWidth, err = units.ParseSize(v); return })
	parse("bus_frequency", func(v string) (err error) { s.BusFrequency, err = units.ParseFrequency(v); return })
	parse("latency_cycles", func(v string) (err error) { s.LatencyCycles, err = units.ParseNumber(v); return })
	parse("latency_clock", func(v string) (err error) { s.LatencyClock, err = units.ParseFrequency(v); return })
	parse("pipeline_stages", func(v string) (err error) { s.PipelineStages, err = units.ParseNumber(v); return })
	parse("cpu_clock", func(v string) (err error) { s.CPUClock, err = units.ParseFrequency(v); return })
	parse("cache", func(v string) (err error) { s.Cache, err = units.ParseSize(v); return })
	parse("line", func(v string) (err error) { s.Line, err = units.ParseSize(v); return })
	if len(p.specErrs) > 0 {
		focusInvalid("derive-form")
		return
	}
	m, err := machine.Derive(s)
	if err != nil {
		var es machine.Errors
		if errors.As(err, &es) {
			for _, fe := range es {
				p.specErrs[fe.Field] = fe.Msg
			}
		} else {
			p.specErrs["bus_width"] = err.Error()
		}
		if m.Beta1 == 0 {
			return
		}
	}
	m.Name = "Derived machine"
	p.openEditor(ctx, "", m)
	p.notice = "Derived from the specifications; check the numbers, name the machine and save it."
	focusFirst("editor")
}

func (p *machinesPage) Render() app.UI {
	return shell("/machines",
		app.H1().Text("Machines"),
		app.P().Class("lead").Text("A machine is six numbers (the MBRAM paper, section II): the sequential and random-access bandwidths of memory, how many sequential streams run at full speed, the largest cache and its line, and the cost of a mispredicted branch. Your machines stay in this browser; export them to keep or share them."),
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
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Machine"),
			app.Th().Scope("col").Text("β1"),
			app.Th().Scope("col").Text("β2"),
			app.Th().Scope("col").Text("μ1"),
			app.Th().Scope("col").Text("C"),
			app.Th().Scope("col").Text("B"),
			app.Th().Scope("col").Text("m"),
			app.Th().Scope("col").Text("Actions"),
		)),
		app.TBody().Body(app.Range(ms).Slice(func(i int) app.UI {
			m := ms[i]
			editLabel := "Copy and edit"
			if user {
				editLabel = "Edit"
			}
			deleteLabel := "Delete"
			if p.confirmDelete == m.ID {
				deleteLabel = "Really delete?"
			}
			return app.Tr().DataSet("id", m.ID).Body(
				app.Th().Scope("row").Body(
					app.Span().Text(m.Name),
					app.If(m.Source != "", app.Small().Class("source").Text(m.Source)),
				),
				app.Td().Class("num").Text(units.FormatBandwidth(m.Beta1)),
				app.Td().Class("num").Text(units.FormatBandwidth(m.Beta2)),
				app.Td().Class("num").Text(strconv.Itoa(m.Mu1)),
				app.Td().Class("num").Text(units.FormatSize(m.C)),
				app.Td().Class("num").Text(units.FormatSize(m.B)),
				app.Td().Class("num").Text(units.FormatSeconds(m.M)),
				app.Td().Class("actions").Body(
					app.A().Class("button").Href(useLink(m)).Text("Use").Aria("label", "Use "+m.Name+" on the Kernels page"),
					app.Button().Text(editLabel).OnClick(p.onEdit(m.ID)).Aria("label", editLabel+" "+m.Name),
					app.If(user,
						app.Button().Text("Export").OnClick(p.onExport(m.ID)).Aria("label", "Export "+m.Name),
						app.Button().Class("danger").Text(deleteLabel).OnClick(p.onDelete(m.ID)).Aria("label", deleteLabel+" "+m.Name),
					),
				),
			)
		})),
	))
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
	return app.Section().ID("editor").Class("panel").Body(
		app.H2().Text(title),
		app.Form().ID("machine-form").OnSubmit(p.onSave).Body(
			app.Div().Class("grid").Body(
				app.Range(machineFields).Slice(func(i int) app.UI {
					f := machineFields[i]
					return textField{ID: "m-" + f.key, Label: f.label, Value: p.edit.shown[f.key], Hint: f.hint, Err: p.editErrs[f.key], OnInput: p.onEditField(f.key), Size: 22}.UI()
				}),
			),
			app.Div().Class("row actions").Body(
				app.Button().ID("save-machine").Type("submit").Text("Save"),
				app.Button().Type("button").Text("Cancel").OnClick(p.onCancel),
			),
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
