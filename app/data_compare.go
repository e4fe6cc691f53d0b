package app

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"memwall/engine/dataset"
	"memwall/engine/estimate"
	"memwall/engine/fit"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/presets"
)

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
		c.Rows = append(c.Rows, dataRow{Line: i + 1, Source: v.Figure, Kernel: k, Machine: m, Params: v.Params, Measured: v.Measured, Predicted: b.Seconds, Hier: hierSeconds(m, v.Kernel, v.Params)})
	}
	c.summarise()
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
	var classes classRuns
	var runs []presets.ValidationRow // the validate rows behind c.Rows
	for i, r := range v.Rows {
		k, _ := mbram.Lookup(r.Kernel)
		b, err := mbram.Predict(m, r.Kernel, r.Workload())
		if err != nil {
			c.Skipped = append(c.Skipped, fmt.Sprintf("row %d (%s): %v", i+1, r.Kernel, err))
			continue
		}
		c.Rows = append(c.Rows, dataRow{Line: i + 1, Source: runSource(r), Kernel: k, Machine: m, Params: r.Workload(), Measured: r.Measured, Predicted: b.Seconds, Hier: hierSeconds(m, r.Kernel, r.Workload())})
		runs = append(runs, r)
	}
	c.summarise()
	for i, r := range runs {
		classes.add(r, c.Rows[i])
	}
	c.Classes = classes.summaries()
	return c
}

// sizeClassNames names validate's size classes (--sizes levels) for the
// table's first column, short: the table is wide already.
var sizeClassNames = map[string]string{"l2": "L2", "llc": "last cache", "beyond": "beyond"}

// runSource is what the table's first column says of a validate run: its
// size class (N, w and b have columns of their own, and the two-pass
// product's block follows from the machine's cache); a run without a
// class, its parameters.
func runSource(r presets.ValidationRow) string {
	if name, ok := sizeClassNames[r.Class]; ok {
		return name
	}
	return r.Params
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
		c.Rows = append(c.Rows, dataRow{Line: line, Kernel: k, Machine: m, Params: params, Measured: ts[i], Predicted: b.Seconds, Hier: hierSeconds(m, k.ID, params)})
	}
	c.summarise()
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

func kernelIDs() string { return strings.Join(mbram.IDs(), ", ") }

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

// summarise fills c's summaries of the relative errors
// |predicted − measured|/measured and the ratios measured/predicted: the
// paper's model over every row, the hierarchy model over the rows it
// predicts, with how many of those lie in its band; and the shown rows'
// uncertainty (addUncertainty).
func (c *comparison) summarise() {
	measured := make([]float64, len(c.Rows))
	predicted := make([]float64, len(c.Rows))
	var hMeasured, hPredicted []float64
	c.HierBand = 0
	for i, r := range c.Rows {
		measured[i], predicted[i] = r.Measured, r.Predicted
		if r.Hier <= 0 {
			continue
		}
		hMeasured, hPredicted = append(hMeasured, r.Measured), append(hPredicted, r.Hier)
		if hier.InBand(r.Measured / r.Hier) {
			c.HierBand++
		}
	}
	c.Rel, c.Ratio = fit.Agreement(measured, predicted)
	c.HierRel, c.HierRatio = fit.Agreement(hMeasured, hPredicted)
	c.addUncertainty()
}

// addUncertainty fills HierUnc of the rows the table shows: each costs
// the model twice per parameter with a spread (hier.Sensitivity), so the
// rows past maxShownRows, which only the CSV carries, go without.
func (c *comparison) addUncertainty() {
	for i := range c.Rows[:min(len(c.Rows), maxShownRows)] {
		c.Rows[i].sense()
	}
}

// sense fills the row's hierShifts and HierUnc, once, where the machine
// has spreads: the same number estimate.By gives the Kernels page.
func (r *dataRow) sense() {
	if r.hierShifts != nil || r.Hier <= 0 || len(r.Machine.Spread) == 0 {
		return
	}
	if e, sh, err := hier.Sensitivity(r.Machine, r.Kernel.ID, r.Params); err == nil && sh != nil {
		r.hierShifts, r.HierUnc = sh, hier.Uncertainty(e.Seconds, sh)
	}
}

// hierSeconds is the hierarchy model's time for the run, 0 when the
// machine has no cache levels or the model cannot predict it.
func hierSeconds(m machine.Machine, kernelID string, p mbram.Params) float64 {
	if estimate.Choose(estimate.Auto, m) != estimate.Hier {
		return 0
	}
	s, err := estimate.Seconds(estimate.Hier, m, kernelID, p)
	if err != nil || s <= 0 {
		return 0
	}
	return s
}
