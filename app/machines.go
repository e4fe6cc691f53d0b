package app

import (
	"errors"
	"fmt"
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
	edit     formText // fields by machine JSON key, and level rows by levelKey
	editErrs map[string]string
	// editBase is the machine the editor opened on: what the form does
	// not show (core rates, spreads, notes) is kept from it on save.
	editBase machine.Machine
	// editLevels is the number of level rows; 0 is the paper's six
	// numbers, with C and B fields of their own.
	editLevels int

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
	for k, v := range levelTexts(m) {
		vals[k] = v
	}
	p.editBase, p.editLevels = m, len(m.Levels)
	p.edit = formText{prefix: "m-"}
	p.edit.set(ctx, vals)
	p.editErrs = map[string]string{}
	p.readEditor()
}

// readEditor parses the editor's fields and validates the machine. It
// returns the machine and whether it is good; each bad field gets a message.
func (p *machinesPage) readEditor() (machine.Machine, bool) {
	p.editErrs = map[string]string{}
	// What the form does not show is the machine's own, kept as it was:
	// an edit never drops a measured core rate, a latency or distribution
	// curve, a spread or a note.
	b := p.editBase
	m := machine.Machine{ID: p.editID, Name: strings.TrimSpace(p.edit.text["name"]),
		Description: strings.TrimSpace(p.edit.text["description"]), Source: strings.TrimSpace(p.edit.text["source"]),
		MemLatency: b.MemLatency, MemLatencyCurve: b.MemLatencyCurve, ComputeRate: b.ComputeRate, CoreRates: b.CoreRates, Distribution: b.Distribution, Streams: b.Streams, StreamCost: b.StreamCost, FewBuckets: b.FewBuckets, L1Fill: b.L1Fill, L1Exposed: b.L1Exposed, LevelOverlap: b.LevelOverlap, WalkInFlight: b.WalkInFlight, CrowdedRead: b.CrowdedRead, ColumnCurve: b.ColumnCurve, GatherCurve: b.GatherCurve,
		Spread: b.Spread, Notes: b.Notes}
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
	if p.editLevels == 0 {
		parse("cache", func(s string) (err error) { m.C, err = units.ParseSize(s); return })
		parse("line", func(s string) (err error) { m.B, err = units.ParseSize(s); return })
		if _, bad := p.editErrs["line"]; !bad && strings.Contains(p.edit.text["cache"], ".") {
			// A cache typed as shown, rounded ("10.42 MiB"): the nearest
			// whole number of lines.
			m.C = machine.NearestLines(m.C, m.B)
		}
	}
	parse("mispredict", func(s string) (err error) { m.M, err = units.ParseDuration(s); return })
	p.readLevels(&m)
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
			p.markMachineErrors(es)
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
