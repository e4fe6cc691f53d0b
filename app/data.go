package app

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
	"memwall/presets"
)

// dataPage compares measured running times of the MBRAM kernels with the
// model's predictions on the machine each was measured on (docs/readings.md
// section 4): one import path for CSV and JSON, columns mapped to kernel,
// N, w, b, machine and time, every row predicted with mbram.Predict, and
// the relative errors summarised. The built-in data set is the MBRAM paper's own
// measured column (Figs. 3–5); imported files stay in the browser and are
// not carried in links.
type dataPage struct {
	app.Compo

	lib      library
	data     string         // mbramData or fileData
	file     *dataset.Table // the imported file
	fileName string
	roles    map[string]string // role -> column name of the file
	// imp is the last import: an error, or a file with bad rows held
	// until the user agrees to use its good rows (what is shown stays as
	// it was).
	imp         fileImport
	cellSkipped []string // bad cells of the file in use, left out

	cmp      comparison
	chartOpt string
	linkMsgs []string
	share    string
	notice   string
}

// mbramData is the built-in data set: the measured column of the MBRAM paper's
// Figs. 3–5, beside the preset machines the paper measured them on.
// oldMBRAMData is the id it had in earlier links, which still open it.
const (
	mbramData    = "mbram-paper"
	oldMBRAMData = "seed000"
)

// dataRoles are the columns the comparison reads, in the order of the form.
var dataRoles = []struct {
	Key, Label string
	Text       bool // a text column (ids), else numbers
	Optional   bool
	Names      []string // header names recognised without asking
}{
	{"kernel", "Kernel", true, false, []string{"kernel", "algorithm", "kernel_id"}},
	{"machine", "Machine", true, false, []string{"machine", "machine_id", "host"}},
	{"n", "N, elements (matrix dimension for matmul)", false, false, []string{"n", "N", "size", "elements"}},
	{"w", "w, word size in bytes", false, true, []string{"w", "word", "word_size"}},
	{"b", "b, buckets", false, true, []string{"b", "buckets", "radix"}},
	{"time", "Measured time", false, false, []string{"seconds", "time", "t", "measured", "runtime"}},
}

// dataRow is one measured run and its prediction.
type dataRow struct {
	Line      int
	Source    string // where the row came from (a figure of the MBRAM paper)
	Kernel    mbram.Kernel
	Machine   machine.Machine
	Params    mbram.Params
	Measured  float64
	Predicted float64
}

// comparison is every row that could be predicted, the rows left out with
// the reason, and the relative errors and ratios measured/predicted.
type comparison struct {
	Rows       []dataRow
	Skipped    []string
	Rel, Ratio fit.Summary
}

func (p *dataPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *dataPage) OnNav(ctx app.Context) {
	p.init(ctx, ctx.Page().URL().EscapedFragment())
	p.writeURL(ctx)
}

func (p *dataPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Data", "Import measured running times of the MBRAM kernels and compare them with the model's predictions: chart, ratios and relative errors.")
	p.lib = loadLibrary(ctx)
	p.load(fragment)
}

// load reads the fragment; it is init without the page context, for tests.
func (p *dataPage) load(fragment string) {
	vals, msgs := parseLink(fragment, []string{"data"})
	p.linkMsgs = msgs
	p.imp.reset()
	p.notice = ""
	if p.lib.Presets == nil {
		p.lib.Presets = presets.Machines()
	}
	id, ok := vals["data"]
	switch {
	case !ok || id == mbramData || id == oldMBRAMData:
		id = mbramData
	case id == fileData && p.file != nil:
	case id == fileData:
		p.linkMsgs = append(p.linkMsgs, "data: this link was made with an imported file, which links do not carry; import it again to see its rows")
		id = mbramData
	case validationSet(id) != nil:
	default:
		p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("data: no built-in data set %s (known: %s)", quoteShort(id), mbramData))
		id = mbramData
	}
	p.data = id
	p.recompute()
}

func (p *dataPage) recompute() {
	if p.data == fileData && p.file != nil {
		p.cmp = compareTable(p.file, p.roles, p.lib)
		p.cmp.Skipped = append(append([]string(nil), p.cellSkipped...), p.cmp.Skipped...)
	} else if v := validationSet(p.data); v != nil {
		p.cmp = compareValidation(*v, p.lib)
	} else {
		p.cmp = compareMBRAMPaper(p.lib)
	}
	p.chartOpt = compareOption(p.cmp.Rows)
}

func (p *dataPage) writeURL(ctx app.Context) {
	u, err := pageLink(ctx.Page().URL(), linkFragment([][2]string{{"data", p.data}}))
	if err != nil {
		return
	}
	p.share = u.String()
	ctx.Page().ReplaceURL(u)
}

// compareMBRAMPaper predicts every measured time that the MBRAM paper prints.
func compareMBRAMPaper(lib library) comparison {
	var c comparison
	vals, err := presets.MBRAMReplication()
	if err != nil {
		c.Skipped = append(c.Skipped, "the built-in data set could not be read: "+err.Error())
		return c
	}
	for i, v := range vals {
		k, _ := mbram.Lookup(v.Kernel)
		m, ok := lib.find(v.Machine)
		if !ok || v.Measured <= 0 {
			continue
		}
		b, err := mbram.Predict(m, v.Kernel, v.Params)
		if err != nil {
			c.Skipped = append(c.Skipped, fmt.Sprintf("row %d (%s): %v", i+1, v.Figure, err))
			continue
		}
		c.Rows = append(c.Rows, dataRow{Line: i + 1, Source: v.Figure, Kernel: k, Machine: m, Params: v.Params, Measured: v.Measured, Predicted: b.Seconds})
	}
	c.Rel, c.Ratio = summarise(c.Rows)
	return c
}

// validationSet finds a shipped measured-versus-predicted table by id.
func validationSet(id string) *presets.ValidationSet {
	sets, _ := presets.ValidationSets()
	for i := range sets {
		if sets[i].ID == id {
			return &sets[i]
		}
	}
	return nil
}

// validationSource cites a shipped table.
func validationSource(id string) string {
	if v := validationSet(id); v != nil {
		return v.Source
	}
	return ""
}

// compareValidation predicts each run of a `memwall validate` table on its
// machine as the library holds it now.
func compareValidation(v presets.ValidationSet, lib library) comparison {
	var c comparison
	m, ok := lib.find(v.Machine)
	if !ok {
		c.Skipped = append(c.Skipped, "machine "+v.Machine+" is not in the library")
		return c
	}
	for i, r := range v.Rows {
		k, _ := mbram.Lookup(r.Kernel)
		b, err := mbram.Predict(m, r.Kernel, r.Workload())
		if err != nil {
			c.Skipped = append(c.Skipped, fmt.Sprintf("row %d (%s): %v", i+1, r.Kernel, err))
			continue
		}
		c.Rows = append(c.Rows, dataRow{Line: i + 1, Source: r.Params, Kernel: k, Machine: m, Params: r.Workload(), Measured: r.Measured, Predicted: b.Seconds})
	}
	c.Rel, c.Ratio = summarise(c.Rows)
	return c
}

// guessRoles maps each role to the file's column of a recognised name.
func guessRoles(t *dataset.Table) map[string]string {
	roles := map[string]string{}
	used := map[string]bool{}
	for _, r := range dataRoles {
		for _, n := range r.Names {
			for _, c := range t.Columns {
				if used[c.Name] || (c.Kind == dataset.Text) != r.Text {
					continue
				}
				if strings.EqualFold(c.Name, n) || strings.EqualFold(c.Header, n) {
					roles[r.Key], used[c.Name] = c.Name, true
				}
			}
			if roles[r.Key] != "" {
				break
			}
		}
	}
	if roles["time"] == "" {
		for _, c := range t.Columns {
			if c.Kind == dataset.Duration && !used[c.Name] {
				roles["time"] = c.Name
				break
			}
		}
	}
	return roles
}

// compareTable predicts each row of an imported table. A row whose kernel
// or machine is unknown, or whose workload the kernel does not accept, is
// left out with a message naming its line and column.
func compareTable(t *dataset.Table, roles map[string]string, lib library) comparison {
	var c comparison
	colNo := map[string]int{}
	for j, col := range t.Columns {
		colNo[col.Name] = j + 1
	}
	where := func(line int, role string) string {
		name := roles[role]
		return fmt.Sprintf("line %d, column %d (%s)", line, colNo[name], t.Col(name).Header)
	}
	for _, r := range dataRoles {
		if !r.Optional && (roles[r.Key] == "" || t.Col(roles[r.Key]) == nil) {
			c.Skipped = append(c.Skipped, fmt.Sprintf("Choose the column that holds %s.", strings.ToLower(r.Label)))
		}
	}
	if len(c.Skipped) > 0 {
		return c
	}
	kernels := t.Col(roles["kernel"])
	machines := t.Col(roles["machine"])
	num := func(role string) []float64 {
		if roles[role] == "" {
			return nil
		}
		if col := t.Col(roles[role]); col != nil {
			return col.Values
		}
		return nil
	}
	ns, ws, bs, ts := num("n"), num("w"), num("b"), num("time")
	if ns == nil || ts == nil {
		c.Skipped = append(c.Skipped, "The N and time columns must hold numbers.")
		return c
	}
	for i := 0; i < t.Len(); i++ {
		line := lineOf(t, i)
		kid := cellText(kernels, i)
		k, ok := findKernel(kid)
		if !ok {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: unknown kernel %s (known: %s)", where(line, "kernel"), quoteShort(kid), kernelIDs()))
			continue
		}
		mid := cellText(machines, i)
		m, ok := findMachine(lib, mid)
		if !ok {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: unknown machine %s (use a preset id such as %s, or the id of one of your machines)", where(line, "machine"), quoteShort(mid), presets.Machines()[0].ID))
			continue
		}
		params := mbram.DefaultParams(0)
		bad := ""
		whole := func(role string, vals []float64, dst *int64) {
			if vals == nil || bad != "" {
				return
			}
			v := vals[i]
			if v != math.Trunc(v) || v < 1 || v > 1<<62 {
				bad = fmt.Sprintf("%s: %s is not a whole number of at least 1", where(line, role), fmtNum(v))
				return
			}
			*dst = int64(v)
		}
		whole("n", ns, &params.N)
		whole("w", ws, &params.W)
		whole("b", bs, &params.Buckets)
		if bad == "" && !(ts[i] > 0 && finite(ts[i])) {
			bad = fmt.Sprintf("%s: the measured time must be above 0", where(line, "time"))
		}
		if bad == "" {
			if err := k.Check(params); err != nil {
				var pe *mbram.ParamError
				if errors.As(err, &pe) && roles[pe.Field] != "" {
					bad = where(line, pe.Field) + ": " + pe.Msg
				} else {
					bad = fmt.Sprintf("line %d: %v", line, err)
				}
			}
		}
		if bad != "" {
			c.Skipped = append(c.Skipped, bad)
			continue
		}
		b, err := mbram.Predict(m, k.ID, params)
		if err != nil || !(b.Seconds > 0 && finite(b.Seconds)) {
			c.Skipped = append(c.Skipped, fmt.Sprintf("line %d: no prediction (%v)", line, err))
			continue
		}
		c.Rows = append(c.Rows, dataRow{Line: line, Kernel: k, Machine: m, Params: params, Measured: ts[i], Predicted: b.Seconds})
	}
	c.Rel, c.Ratio = summarise(c.Rows)
	return c
}

func cellText(c *dataset.Column, i int) string {
	if c == nil {
		return ""
	}
	if c.Kind == dataset.Text {
		if i < len(c.Strings) {
			return strings.TrimSpace(c.Strings[i])
		}
		return ""
	}
	if i < len(c.Values) {
		return fmtNum(c.Values[i])
	}
	return ""
}

// findKernel accepts a kernel's id or its name, in any case.
func findKernel(s string) (mbram.Kernel, bool) {
	if k, ok := mbram.Lookup(s); ok {
		return k, true
	}
	for _, k := range mbram.Kernels() {
		if strings.EqualFold(k.ID, s) || strings.EqualFold(k.Name, s) {
			return k, true
		}
	}
	return mbram.Kernel{}, false
}

func kernelIDs() string {
	var ids []string
	for _, k := range mbram.Kernels() {
		ids = append(ids, k.ID)
	}
	return strings.Join(ids, ", ")
}

// findMachine accepts a preset's or the user's machine id, or its name.
func findMachine(lib library, s string) (machine.Machine, bool) {
	if m, ok := lib.find(s); ok {
		return m, true
	}
	for _, m := range append(append([]machine.Machine(nil), lib.Presets...), lib.User...) {
		if strings.EqualFold(m.ID, s) || strings.EqualFold(m.Name, s) {
			return m, true
		}
	}
	return machine.Machine{}, false
}

// summarise reports the relative errors |predicted − measured|/measured
// and the ratios measured/predicted of the rows.
func summarise(rows []dataRow) (rel, ratio fit.Summary) {
	measured := make([]float64, len(rows))
	predicted := make([]float64, len(rows))
	for i, r := range rows {
		measured[i], predicted[i] = r.Measured, r.Predicted
	}
	return fit.Agreement(measured, predicted)
}

// Import.

func (p *dataPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.notice = ""
		t, cellMsgs, ok := p.imp.readGood(name, data, err)
		if !ok {
			return
		}
		// Rows the model cannot predict (unknown kernel or machine) are
		// bad rows too: the user sees them all before anything changes.
		roles := guessRoles(t)
		cmp := compareTable(t, roles, p.lib)
		all := append(cellMsgs, cmp.Skipped...)
		if len(all) == 0 {
			p.useFile(name, t, roles, nil)
			return
		}
		if len(cmp.Rows) == 0 && len(cmp.Skipped) > 0 && !strings.HasPrefix(cmp.Skipped[0], "Choose") {
			p.imp.msgs = append(append([]string{name + ": no row can be compared:"}, limit(all, 50)...), "Nothing was changed.")
			return
		}
		p.imp.hold(name, data, cellMsgs, append([]string{fmt.Sprintf("%s: %d row(s) can be compared; these cannot:", name, len(cmp.Rows))}, limit(all, 50)...))
		p.cellSkipped = nil
	})
}

// onImportGood takes the good rows of a file with bad ones, once the user
// has seen the list and agreed.
func (p *dataPage) onImportGood(ctx app.Context, e app.Event) {
	g, ok := p.imp.goodRows()
	if !ok {
		return
	}
	p.useFile(g.name, g.table, guessRoles(g.table), g.cells)
	p.writeURL(ctx)
}

func (p *dataPage) onImportCancel(ctx app.Context, e app.Event) { p.imp.cancel() }

func (p *dataPage) useFile(name string, t *dataset.Table, roles map[string]string, cells []string) {
	p.file, p.fileName, p.roles, p.cellSkipped = t, name, roles, cells
	p.data = fileData
	p.recompute()
	p.notice = fmt.Sprintf("Imported %s: %d of %d rows compared.", name, len(p.cmp.Rows), t.Len())
}

func (p *dataPage) onData(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	if id == fileData && p.file == nil {
		return
	}
	p.data = id
	p.notice = ""
	p.recompute()
	p.writeURL(ctx)
}

func (p *dataPage) onRole(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if p.roles == nil {
			p.roles = map[string]string{}
		}
		p.roles[key] = inputValue(ctx)
		p.recompute()
	}
}

func (p *dataPage) onDownload(ctx app.Context, e app.Event) {
	var b strings.Builder
	b.WriteString("line,kernel,machine,n,w,b,measured_s,predicted_s,ratio,rel_error\n")
	for _, r := range p.cmp.Rows {
		fmt.Fprintf(&b, "%d,%s,%s,%d,%d,%d,%g,%g,%g,%g\n", r.Line, r.Kernel.ID, r.Machine.ID, r.Params.N, r.Params.W, r.Params.Buckets,
			r.Measured, r.Predicted, r.Measured/r.Predicted, fit.RelError(r.Measured, r.Predicted))
	}
	download("memwall-comparison.csv", "text/csv", []byte(b.String()))
}

// compareOption draws measured against predicted, log-log, one series per
// kernel, with the line where they agree: the model is a lower bound, so
// points should lie on or above it.
func compareOption(rows []dataRow) string {
	byKernel := map[string][]any{}
	var order []string
	lo, hi := 0.0, 0.0
	for _, r := range rows {
		if _, ok := byKernel[r.Kernel.Name]; !ok {
			order = append(order, r.Kernel.Name)
		}
		byKernel[r.Kernel.Name] = append(byKernel[r.Kernel.Name], map[string]any{
			"value": []float64{r.Predicted, r.Measured},
			"name":  fmt.Sprintf("line %d: %s, N = %s", r.Line, r.Machine.Name, units.FormatCount(r.Params.N)),
		})
		for _, v := range []float64{r.Predicted, r.Measured} {
			if lo == 0 || v < lo {
				lo = v
			}
			hi = math.Max(hi, v)
		}
	}
	series := []any{map[string]any{"type": "line", "name": "measured = predicted", "data": [][2]float64{{lo, lo}, {hi, hi}},
		"showSymbol": false, "silent": true, "lineStyle": map[string]any{"type": "dashed", "color": "#888"}, "itemStyle": map[string]any{"color": "#888"}}}
	for _, k := range order {
		series = append(series, map[string]any{"type": "scatter", "name": k, "data": byKernel[k], "symbolSize": 10})
	}
	return chartJSON(map[string]any{
		"animation": false,
		"grid":      map[string]any{"left": 16, "right": 40, "top": 64, "bottom": 48, "containLabel": true},
		"legend":    map[string]any{"top": 4, "left": 0, "right": 90, "type": "scroll"},
		"tooltip":   map[string]any{"trigger": "item", "valueFormatter": "@seconds"},
		"xAxis": map[string]any{"type": "log", "name": "predicted (MBRAM)", "nameLocation": "middle", "nameGap": 30,
			"axisLabel": map[string]any{"formatter": "@seconds"}},
		"yAxis":  map[string]any{"type": "log", "name": "measured", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": series,
	})
}
