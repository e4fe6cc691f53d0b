package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// The editor's cache levels. A machine that gives its levels is edited as
// rows of six fields, one row a level from the core out; the machine's C
// and B are then the last level's size and line (machine.WithLevels), so
// the editor shows no C and B fields of their own. The machine package
// validates the rows (machine.ValidateLevels), and its errors name the
// field as levels[1].size, which the editor puts under that field.

// levelFields are a level row's fields, in form order.
var levelFields = []struct{ key, label, hint string }{
	{"name", "Name", "e.g. L1"},
	{"size", "Size", "e.g. 48 KiB"},
	{"line", "Line", "a power of two; e.g. 64 B"},
	{"beta1", "β1, stream", "fill from the level below, a line that continues a stream; e.g. 200 GB/s"},
	{"beta2", "β2, random", "fill of a line from a random place, at most β1; e.g. 100 GB/s"},
	{"latency", "Latency", "of a hit, optional; e.g. 4 ns"},
}

// hierFields are the hierarchy's other numbers, shown with the levels.
var hierFields = []struct{ key, label, hint string }{
	{"mem_latency", "Memory latency", "optional; what a dependent load waits for memory, e.g. 80 ns"},
	{"compute_rate", "Compute rate (operations per second)", "optional; e.g. 4 G or 4e9"},
	{"level_overlap", "Levels' transfers overlap ω", "optional, 0 to 1: 0 a line's steps through the levels add up (Intel cores), 1 they hide behind its largest (AMD Zen cores)"},
	{"walk_in_flight", "A heap walk's lines in flight", "optional, 1 to 64: how many lines of a walk down a heap the core fetches at once below its first line past a cache, which it waits for in full; empty: every line shared among as many as a line's keys allow (4 for 4-byte keys in 64 B)"},
	{"crowded_read", "A crowded read", "optional: what a read takes beyond a first-level hit when its line sits at the same place in its 4 KiB page as the lines read around it (a matrix column with rows of 4 KiB), e.g. 1.9 ns; empty: such reads cost the levels' fills"},
}

// levelKey is the editor's key of one field of level row i; the input's id
// is "m-" and the key, which a CSS selector reads without escapes.
func levelKey(i int, field string) string { return "l" + strconv.Itoa(i) + "-" + field }

// levelPath is the machine's name of the same field, as its errors give it.
func levelPath(i int, field string) string { return fmt.Sprintf("levels[%d].%s", i, field) }

// editorKey maps a machine field to the editor key that shows its error:
// levels[1].size to the row's field; with levels, cache and line to the
// last level's size and line, which they are taken from.
func editorKey(field string, levels int) string {
	if rest, ok := strings.CutPrefix(field, "levels["); ok {
		if n, f, ok := strings.Cut(rest, "]."); ok {
			if i, err := strconv.Atoi(n); err == nil {
				return levelKey(i, f)
			}
		}
	}
	if levels > 0 {
		switch field {
		case "cache":
			return levelKey(levels-1, "size")
		case "line":
			return levelKey(levels-1, "line")
		}
	}
	if strings.HasPrefix(field, "core_rates") {
		return "core_rates"
	}
	if strings.HasPrefix(field, "distribution") {
		return "distribution"
	}
	return field
}

// levelTexts are the fields of m's levels and hierarchy numbers.
func levelTexts(m machine.Machine) map[string]string {
	vals := map[string]string{"mem_latency": "", "compute_rate": fieldRate(m.ComputeRate), "level_overlap": "", "walk_in_flight": "", "crowded_read": ""}
	if m.LevelOverlap > 0 {
		vals["level_overlap"] = strconv.FormatFloat(m.LevelOverlap, 'g', -1, 64)
	}
	if m.WalkInFlight > 0 {
		vals["walk_in_flight"] = strconv.FormatFloat(m.WalkInFlight, 'g', -1, 64)
	}
	if m.MemLatency > 0 {
		vals["mem_latency"] = units.FieldSeconds(m.MemLatency)
	}
	if m.CrowdedRead > 0 {
		vals["crowded_read"] = units.FieldSeconds(m.CrowdedRead)
	}
	for i, l := range m.Levels {
		for k, v := range levelRow(l) {
			vals[levelKey(i, k)] = v
		}
	}
	return vals
}

// levelRow is one level as field texts.
func levelRow(l machine.Level) map[string]string {
	row := map[string]string{"name": l.Name, "size": units.FieldSize(l.Size), "line": units.FieldSize(l.Line),
		"beta1": units.FieldBandwidth(l.Beta1), "beta2": units.FieldBandwidth(l.Beta2), "latency": ""}
	if l.Latency > 0 {
		row["latency"] = units.FieldSeconds(l.Latency)
	}
	return row
}

// showHierFields says the editor shows the memory latency and compute
// rate: with levels, or for a machine that gives them without levels.
func (p *machinesPage) showHierFields() bool {
	return p.editLevels > 0 || p.editBase.MemLatency > 0 || p.editBase.ComputeRate > 0
}

// readLevels parses the level rows and the hierarchy numbers into m. A
// field that does not read is marked, named as the machine names it.
func (p *machinesPage) readLevels(m *machine.Machine) {
	text := func(key string) string { return strings.TrimSpace(p.edit.text[key]) }
	mark := func(key, path string, err error) { p.editErrs[key] = path + ": " + err.Error() }
	if p.showHierFields() {
		// Each field empty is 0, "not given".
		for _, f := range []struct {
			key   string
			parse func(string) (float64, error)
			dst   *float64
		}{
			{"mem_latency", units.ParseDuration, &m.MemLatency},
			{"compute_rate", units.ParseNumber, &m.ComputeRate},
			{"level_overlap", units.ParseNumber, &m.LevelOverlap},
			{"walk_in_flight", units.ParseNumber, &m.WalkInFlight},
			{"crowded_read", units.ParseDuration, &m.CrowdedRead},
		} {
			*f.dst = 0
			if t := text(f.key); t != "" {
				v, err := f.parse(t)
				if err != nil {
					mark(f.key, f.key, err)
				}
				*f.dst = v
			}
		}
	}
	if p.editLevels == 0 {
		return
	}
	levels := make([]machine.Level, p.editLevels)
	for i := range levels {
		l := &levels[i]
		l.Name = text(levelKey(i, "name"))
		for _, f := range []struct {
			key   string
			parse func(string) error
		}{
			{"size", func(s string) (err error) { l.Size, err = units.ParseSize(s); return }},
			{"line", func(s string) (err error) { l.Line, err = units.ParseSize(s); return }},
			{"beta1", func(s string) (err error) { l.Beta1, err = units.ParseBandwidth(s); return }},
			{"beta2", func(s string) (err error) { l.Beta2, err = units.ParseBandwidth(s); return }},
			{"latency", func(s string) (err error) {
				if s == "" {
					return nil // not given
				}
				l.Latency, err = units.ParseDuration(s)
				return
			}},
		} {
			if err := f.parse(text(levelKey(i, f.key))); err != nil {
				mark(levelKey(i, f.key), levelPath(i, f.key), err)
			}
		}
	}
	// C and B are the last level's; β1 and β2 stay the machine's own (the
	// paper's whole cost of a line from memory).
	beta1, beta2 := m.Beta1, m.Beta2
	*m = m.WithLevels(levels)
	m.Beta1, m.Beta2 = beta1, beta2
}

// markMachineErrors puts the machine's validation errors under the fields
// that show them; a level's message names the field as levels[1].size.
func (p *machinesPage) markMachineErrors(es machine.Errors) {
	for _, e := range es {
		key := editorKey(e.Field, p.editLevels)
		if _, marked := p.editErrs[key]; marked {
			continue
		}
		msg := e.Msg
		if key != e.Field {
			msg = e.Field + ": " + msg
		}
		p.editErrs[key] = msg
	}
}

// setLevelRows writes rows into the editor as its level rows, replacing
// them all, and forgets the fields of rows past the end.
func (p *machinesPage) setLevelRows(ctx app.Context, rows []map[string]string) {
	for i := len(rows); i < p.editLevels; i++ {
		for _, f := range levelFields {
			delete(p.edit.text, levelKey(i, f.key))
			delete(p.edit.shown, levelKey(i, f.key))
		}
	}
	vals := map[string]string{}
	for i, row := range rows {
		for _, f := range levelFields {
			vals[levelKey(i, f.key)] = row[f.key]
		}
	}
	p.editLevels = len(rows)
	p.edit.set(ctx, vals)
}

// levelRows are the editor's level rows as typed.
func (p *machinesPage) levelRows() []map[string]string {
	rows := make([]map[string]string, p.editLevels)
	for i := range rows {
		rows[i] = map[string]string{}
		for _, f := range levelFields {
			rows[i][f.key] = p.edit.text[levelKey(i, f.key)]
		}
	}
	return rows
}

// newLevel is a row to insert before row at (at == len(rows): after the
// last), with numbers made from its neighbour's where they read: a level
// above is an eighth the size and twice the bandwidth, one below four
// times the size and half the bandwidth. The user corrects them; the
// point is a row that validates as a start.
func newLevel(rows []map[string]string, at int) map[string]string {
	row := map[string]string{"name": freeLevelName(rows), "size": "", "line": "64 B", "beta1": "", "beta2": "", "latency": ""}
	if len(rows) == 0 {
		return row
	}
	nb, size, bw := rows[min(at, len(rows)-1)], 1.0/8, 2.0
	if at == len(rows) {
		size, bw = 4, 0.5
	}
	row["line"] = nb["line"]
	line, err := units.ParseSize(strings.TrimSpace(nb["line"]))
	if s, err2 := units.ParseSize(strings.TrimSpace(nb["size"])); err == nil && err2 == nil && line > 0 {
		lines := max(int64(float64(s/line)*size), 1)
		row["size"] = units.FieldSize(lines * line)
	}
	for _, k := range []string{"beta1", "beta2"} {
		if v, err := units.ParseBandwidth(strings.TrimSpace(nb[k])); err == nil && v > 0 {
			row[k] = units.FieldBandwidth(v * bw)
		}
	}
	return row
}

// freeLevelName is a name no row has: L1, L2, ... by count, else "new
// level" and a number.
func freeLevelName(rows []map[string]string) string {
	taken := map[string]bool{}
	for _, r := range rows {
		taken[strings.TrimSpace(r["name"])] = true
	}
	for _, n := range []string{"L" + strconv.Itoa(len(rows)+1), "new level"} {
		if !taken[n] {
			return n
		}
	}
	for i := 2; ; i++ {
		if n := "new level " + strconv.Itoa(i); !taken[n] {
			return n
		}
	}
}

// onAddLevels gives a machine of six numbers its cache levels: one level
// to start, the machine's cache itself (as machine.Hierarchy reads it).
func (p *machinesPage) onAddLevels(ctx app.Context, e app.Event) {
	p.edit.settle()
	row := map[string]string{"name": machine.SingleLevelName, "size": p.edit.text["cache"], "line": p.edit.text["line"],
		"beta1": p.edit.text["beta1"], "beta2": p.edit.text["beta2"], "latency": ""}
	p.setLevelRows(ctx, []map[string]string{row})
	p.readEditor()
	focusFirst("level-0")
}

// onInsertLevel adds a level row before row at (after the last for at ==
// the number of rows).
func (p *machinesPage) onInsertLevel(at int) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.insertLevel(ctx, at) }
}

func (p *machinesPage) insertLevel(ctx app.Context, at int) {
	p.edit.settle()
	rows := p.levelRows()
	if len(rows) >= machine.MaxLevels || at < 0 || at > len(rows) {
		return
	}
	rows = append(rows[:at], append([]map[string]string{newLevel(rows, at)}, rows[at:]...)...)
	p.setLevelRows(ctx, rows)
	p.readEditor()
	focusFirst("level-" + strconv.Itoa(at))
}

// onRemoveLevel removes row i. Removing the last row makes the machine one
// of six numbers again, with that level's size and line as C and B, so
// nothing typed is lost.
func (p *machinesPage) onRemoveLevel(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.removeLevel(ctx, i) }
}

func (p *machinesPage) removeLevel(ctx app.Context, i int) {
	p.edit.settle()
	rows := p.levelRows()
	if i < 0 || i >= len(rows) {
		return
	}
	if len(rows) == 1 {
		p.edit.set(ctx, map[string]string{"cache": rows[0]["size"], "line": rows[0]["line"]})
	}
	p.setLevelRows(ctx, append(rows[:i], rows[i+1:]...))
	p.readEditor()
}
