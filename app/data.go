package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/ranking"
	"memwall/presets"
)

// dataPage compares measured running times of the MBRAM kernels with the
// model's predictions on the machine each was measured on (docs/readings.md
// section 4): one import path for CSV and JSON, columns mapped to kernel,
// N, w, b, machine and time, every row predicted with mbram.Predict (and,
// on a machine that gives its cache levels, by the hierarchy model beside
// it), and the relative errors summarised. The built-in data set is the MBRAM paper's own
// measured column (Figs. 3–5); imported files stay in the browser and are
// not carried in links.
type dataPage struct {
	app.Compo

	lib      library
	data     string         // mbramData, a shipped table's id, fileData or reportData
	file     *dataset.Table // the imported file
	fileName string
	// report is an imported validate report (reportData), predicted as
	// the shipped tables are.
	report *presets.ValidationSet
	roles  map[string]string // role -> column name of the file
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

// reportData is the data set of an imported `memwall validate --json`
// report, which, as an imported file, links do not carry.
const reportData = "validate-report"

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
	// Hier is the hierarchy model's prediction, 0 where the machine has
	// no cache levels (the paper's machines: its model is the only one).
	Hier float64
	// HierUnc is the share of Hier that the calibration's spreads move it
	// (estimate.Prediction.Uncertainty), 0 for a machine without spreads
	// and for rows past the table's first maxShownRows; hierShifts are
	// the moves it comes from (hier.Sensitivity), which the ranking by
	// size class reads too.
	HierUnc    float64
	hierShifts []hier.Shift
}

// comparison is every row that could be predicted, the rows left out with
// the reason, and the relative errors and ratios measured/predicted.
type comparison struct {
	Rows       []dataRow
	Skipped    []string
	Rel, Ratio fit.Summary
	// HierRel and HierRatio summarise the rows the hierarchy model
	// predicts (HierRel.N of them), HierBand how many of those lie within
	// hier's band.
	HierRel, HierRatio fit.Summary
	HierBand           int
	// Classes is a validate table's summary by size class (ranking.Summarize),
	// none for a table without classes.
	Classes []ranking.Summary
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
	case id == reportData && p.report != nil:
	case id == reportData:
		p.linkMsgs = append(p.linkMsgs, "data: this link was made with an imported validate report, which links do not carry; import it again to see its rows")
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
	} else if p.data == reportData && p.report != nil {
		p.cmp = compareValidation(*p.report, p.lib)
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

func (p *dataPage) onData(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	if (id == fileData && p.file == nil) || (id == reportData && p.report == nil) {
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
	b.WriteString("line,kernel,machine,n,w,b,measured_s,predicted_s,ratio,rel_error,hier_predicted_s,hier_ratio\n")
	for _, r := range p.cmp.Rows {
		fmt.Fprintf(&b, "%d,%s,%s,%d,%d,%d,%g,%g,%g,%g,", r.Line, r.Kernel.ID, r.Machine.ID, r.Params.N, r.Params.W, r.Params.Buckets,
			r.Measured, r.Predicted, r.Measured/r.Predicted, fit.RelError(r.Measured, r.Predicted))
		if r.Hier > 0 {
			fmt.Fprintf(&b, "%g,%g", r.Hier, r.Measured/r.Hier)
		} else {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	download("memwall-comparison.csv", "text/csv", []byte(b.String()))
}
