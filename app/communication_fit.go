package app

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/numl"
	"memwall/presets"
)

// The fitting section of the Communication page: the lines-touched paper's model sets
// S1–S3 and M1–M3 (section 4.3) fitted by engine/numl to measured message
// times on a training set and judged on the rest (section 4.5), with the
// S1 and M1 fits offered to the convolution below.

// commDevbox is the built-in set measured by memwall numl measure; its
// default training rows leave out the arrays of W = 4000 bytes (rows of
// 1000 integers, whose starts walk through the lines), which form the
// test set: shapes the fit has not seen.
const (
	commDevbox      = "numl-devbox"
	commDevboxTrain = "W != 4000"
)

// commFit is the fitting section's state.
type commFit struct {
	file     *dataset.Table // an imported file, kept while a built-in set is shown
	fileName string
	tbl      *dataset.Table // the data in use
	seconds  bool           // the measured column is a time
	sets     []numl.SetFit
	trainN   int
	testN    int
	err      string // why nothing is fitted
	trainErr string // under the training field
	chart    string
	hidden   int

	imp     fileImport
	useNote string
}

// commDatasets lists the built-in sets the section can fit: those with
// bytes n and lines touched u. They are embedded and do not change, so they
// are read once, not on every render.
var commDatasets = sync.OnceValue(func() []presets.DatasetInfo {
	var out []presets.DatasetInfo
	for _, d := range presets.Datasets() {
		if t, err := presets.Dataset(d.ID); err == nil && hasColumn(t, "n") && hasColumn(t, "u") {
			out = append(out, d)
		}
	}
	return out
})

func (p *communicationPage) dataOptions() []option {
	var opts []option
	for _, d := range commDatasets() {
		opts = append(opts, option{Value: d.ID, Label: d.Title, Group: "Built in"})
	}
	if p.fit.file != nil {
		opts = append(opts, option{Value: fileData, Label: p.fit.fileName, Group: "Imported"})
	}
	return opts
}

// timeColumn is the measured column a table is fitted on by default: a
// column named time, else the last time column, else the last numeric one.
func timeColumn(t *dataset.Table) string {
	if hasColumn(t, "time") {
		return "time"
	}
	return guessColumn(t, []string{"t", "seconds"}, true)
}

// loadData reads the data keys of a link (already in the form) and says
// what it could not use.
func (p *communicationPage) loadData(ctx app.Context, vals map[string]string) {
	t := p.form.text
	id := t["data"]
	known := false
	for _, d := range commDatasets() {
		known = known || d.ID == id
	}
	switch {
	case id == fileData && p.fit.file != nil:
	case id == fileData:
		p.linkMsgs = append(p.linkMsgs, "data: this link was made with an imported file, which links do not carry; the built-in measurements are shown until you import the file again")
		id = commDevbox
	case !known:
		p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("data: no built-in set of message times %s; the built-in measurements are shown", quoteShort(id)))
		id = commDevbox
	}
	fix := map[string]string{"data": id}
	p.fit.tbl = p.tableFor(id)
	if _, fromLink := vals["y"]; fromLink && !hasColumn(p.fit.tbl, t["y"]) {
		p.linkMsgs = append(p.linkMsgs, fmt.Sprintf("y: the data has no numeric column %s; %s was used", quoteShort(t["y"]), timeColumn(p.fit.tbl)))
		fix["y"] = timeColumn(p.fit.tbl)
	}
	p.form.set(ctx, fix)
	p.refit()
	if _, fromLink := vals["train"]; fromLink && p.fit.trainErr != "" {
		p.linkMsgs = append(p.linkMsgs, p.fit.trainErr)
	}
}

func (p *communicationPage) tableFor(id string) *dataset.Table {
	if id == fileData && p.fit.file != nil {
		return p.fit.file
	}
	t, err := presets.Dataset(id)
	if err != nil {
		t, _ = presets.Dataset(commDevbox)
	}
	return t
}

// refit fits the six sets to the data under the training condition.
func (p *communicationPage) refit() {
	f := &p.fit
	f.sets, f.err, f.trainErr, f.chart, f.hidden, f.trainN, f.testN = nil, "", "", "", 0, 0, 0
	if f.tbl == nil {
		f.err = "No data."
		return
	}
	y := p.form.text["y"]
	c := f.tbl.Col(y)
	if c == nil || c.Kind == dataset.Text {
		f.err = fmt.Sprintf("Measured column: the data has no numeric column %s.", quoteShort(y))
		return
	}
	f.seconds = c.Kind == dataset.Duration
	var cond fit.Cond
	if s := strings.TrimSpace(p.form.text["train"]); s != "" {
		var err error
		if cond, err = fit.ParseCond(s); err != nil {
			f.trainErr = "Training rows: " + err.Error()
			return
		}
	}
	train, test, err := fit.Split(f.tbl, cond)
	if err != nil {
		f.trainErr = "Training rows: " + err.Error()
		return
	}
	f.trainN, f.testN = len(train), len(test)
	sets, err := numl.FitSets(f.tbl, y, cond, nil)
	if err != nil {
		f.err = err.Error()
		return
	}
	f.sets = sets
	f.chart, f.hidden = fitCompareOption(p.setResult(numl.S1), p.setResult(numl.M1), f.seconds)
}

// setResult is the fit of a named set, or nil.
func (p *communicationPage) setResult(name string) *fit.Result {
	for _, s := range p.fit.sets {
		if s.Set.Name == name && s.Err == nil {
			return s.Result
		}
	}
	return nil
}

func (p *communicationPage) onData(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	if id == fileData && p.fit.file == nil {
		return
	}
	p.useData(ctx, id)
}

// useData switches to a data set with its default measured column and
// training rows (the file keeps a condition it can read).
func (p *communicationPage) useData(ctx app.Context, id string) {
	t := p.tableFor(id)
	train := ""
	if id == commDevbox {
		train = commDevboxTrain
	} else if cond, err := fit.ParseCond(strings.TrimSpace(p.form.text["train"])); err == nil {
		if _, _, err := fit.Split(t, cond); err == nil {
			train = p.form.text["train"]
		}
	}
	p.fit.tbl, p.fit.useNote = t, ""
	p.form.set(ctx, map[string]string{"data": id, "y": timeColumn(t), "train": train})
	p.refit()
	p.writeURL(ctx)
}

func (p *communicationPage) onY(ctx app.Context, e app.Event) {
	p.form.set(ctx, map[string]string{"y": inputValue(ctx)})
	p.fit.useNote = ""
	p.refit()
	p.writeURL(ctx)
}

func (p *communicationPage) onTrain(ctx app.Context, e app.Event) {
	p.form.typed("train", inputValue(ctx))
	p.fit.useNote = ""
	p.refit()
	p.writeURL(ctx)
}

func (p *communicationPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.notice = ""
		if t, ok := p.fit.imp.readTable(name, data, err); ok {
			p.useFile(ctx, name, t)
		}
	})
}

// onImportGood imports the good rows of a file with bad ones, once the
// user has seen the list and agreed.
func (p *communicationPage) onImportGood(ctx app.Context, e app.Event) {
	g, ok := p.fit.imp.goodRows()
	if !ok {
		return
	}
	p.useFile(ctx, g.name, g.table)
	p.notice = fmt.Sprintf("Imported %d rows of %s; %d bad cell(s) were left out.", g.table.Len(), g.name, g.skipped)
}

func (p *communicationPage) onImportCancel(ctx app.Context, e app.Event) { p.fit.imp.cancel() }

func (p *communicationPage) useFile(ctx app.Context, name string, t *dataset.Table) {
	if !hasColumn(t, "n") || !hasColumn(t, "u") {
		p.fit.imp.err = fmt.Sprintf("%s: the models need numeric columns n (bytes sent) and u (lines touched); the file has %s. memwall numl measure writes them.", name, strings.Join(t.Names(), ", "))
		return
	}
	p.fit.file, p.fit.fileName = t, name
	p.useData(ctx, fileData)
	p.notice = fmt.Sprintf("Imported %s: %d rows, columns %s.", name, t.Len(), strings.Join(t.Names(), ", "))
}

func (p *communicationPage) onUseFit(ctx app.Context, e app.Event) {
	if p.useFit(ctx) {
		p.writeURL(ctx)
	}
}

// useFit puts the S1 and M1 fits' message costs into the convolution's
// coefficient fields, keeping their statement costs; it reports whether
// it changed them.
func (p *communicationPage) useFit(ctx app.Context) bool {
	s1, m1 := p.setResult(numl.S1), p.setResult(numl.M1)
	if s1 == nil || m1 == nil || !p.fit.seconds {
		return false
	}
	std, clampS, err1 := numl.MessageCoef(s1.Model)
	withLines, clampM, err2 := numl.MessageCoef(m1.Model)
	if err := errors.Join(err1, err2); err != nil {
		p.fit.useNote = "The fits cannot be used: " + err.Error()
		return false
	}
	exStd, exM1 := numl.ExampleCoefficients()
	cur, err := numl.ParseCoef("", p.form.text["std"])
	if err != nil {
		cur = exStd
	}
	std.Delta, std.BetaMem = cur.Delta, cur.BetaMem
	if cur, err = numl.ParseCoef("", p.form.text["m1"]); err != nil {
		cur = exM1
	}
	withLines.Delta, withLines.BetaMem, withLines.GammaMem = cur.Delta, cur.BetaMem, cur.GammaMem
	p.form.set(ctx, map[string]string{"std": std.String(), "m1": withLines.String()})
	note := "The convolution below now uses the fitted per-message and per-byte costs (and M1's per-line cost); the statement costs were kept."
	if cl := append(clampS, clampM...); len(cl) > 0 {
		note += " Fitted below zero and set to 0, as a cost cannot be negative: " + strings.Join(cl, ", ") + "."
	}
	p.fit.useNote = note
	p.recompute()
	return true
}
