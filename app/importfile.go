package app

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
)

// fileImport is a page's import of a data file (CSV or JSON, through
// "Import CSV or JSON…"): the error that stopped it, or a file with bad
// rows held, with the list of what is wrong with it, until the user agrees
// to use its good rows or cancels. What the page shows stays as it was
// meanwhile.
type fileImport struct {
	err   string   // why the file could not be used
	msgs  []string // what is wrong with the file
	held  []byte   // the file held for its good rows; nil when none
	name  string   // the held file's name
	cells []string // its bad cells, when the page reads them before asking
}

// reset forgets the last import.
func (f *fileImport) reset() { f.msgs, f.held, f.err, f.cells = nil, nil, "", nil }

// readTable reads a picked file (the arguments of readPickedFile's done) as
// a table, which it returns when every row reads. A file with bad rows is
// listed, and held when some of its rows are good; any other failure is
// the error.
func (f *fileImport) readTable(name string, data []byte, err error) (*dataset.Table, bool) {
	f.reset()
	if err != nil {
		f.err = err.Error()
		return nil, false
	}
	t, _, err := dataset.Read(bytes.NewReader(data), dataset.Options{})
	var bad *dataset.BadRowsError
	switch {
	case errors.As(err, &bad):
		f.msgs = cellMessages(name, bad.Errors)
		if bad.GoodRows > 0 {
			f.held, f.name = data, name
		}
		return nil, false
	case err != nil:
		f.err = name + ": " + err.Error()
		return nil, false
	}
	return t, true
}

// readGood reads a picked file's good rows for a page that checks them
// before it asks: the table and its bad cells, one message each. A file
// without a good row is listed (it says so); any other failure is the
// error.
func (f *fileImport) readGood(name string, data []byte, err error) (*dataset.Table, []string, bool) {
	f.reset()
	if err != nil {
		f.err = err.Error()
		return nil, nil, false
	}
	t, _, err := dataset.Read(bytes.NewReader(data), dataset.Options{})
	var bad *dataset.BadRowsError
	var cells []string
	switch {
	case errors.As(err, &bad):
		if bad.GoodRows == 0 {
			f.msgs = append(cellMessages(name, bad.Errors), "No row of the file could be read; nothing was changed.")
			return nil, nil, false
		}
		for _, e := range bad.Errors {
			cells = append(cells, e.Error())
		}
		t, _, err = dataset.Read(bytes.NewReader(data), dataset.Options{KeepGoodRows: true})
		if err != nil {
			f.err = name + ": " + err.Error()
			return nil, nil, false
		}
	case err != nil:
		f.err = name + ": " + err.Error()
		return nil, nil, false
	}
	return t, cells, true
}

// hold keeps a file whose rows readGood read, with its bad cells, until the
// user agrees to use its good rows; msgs says what is wrong with it.
func (f *fileImport) hold(name string, data []byte, cells, msgs []string) {
	f.msgs, f.held, f.name, f.cells = msgs, data, name, cells
}

// goodFile is the good part of a held file.
type goodFile struct {
	name    string
	table   *dataset.Table
	skipped int      // bad cells left out
	cells   []string // their messages, when the page read them before asking
}

// goodRows reads the good rows of the held file, once the user has seen
// the list and agreed, and forgets the file; false when they cannot be
// read, with the error set.
func (f *fileImport) goodRows() (goodFile, bool) {
	t, skipped, err := dataset.Read(bytes.NewReader(f.held), dataset.Options{KeepGoodRows: true})
	g := goodFile{name: f.name, table: t, skipped: len(skipped), cells: f.cells}
	f.held, f.msgs, f.cells = nil, nil, nil
	if err != nil {
		f.err = g.name + ": " + err.Error()
		return g, false
	}
	return g, true
}

// cancel forgets the held file.
func (f *fileImport) cancel() { f.held, f.msgs, f.cells = nil, nil, nil }

// errorView says why the last import failed.
func (f *fileImport) errorView() app.UI {
	return app.If(f.err != "", app.P().ID("import-error").Class("error").Aria("live", "polite").Text(f.err))
}

// report lists what is wrong with the file and offers to import its good
// rows or cancel; noneGood, if not "", says that it has none.
func (f *fileImport) report(onGood, onCancel app.EventHandler, noneGood string) app.UI {
	return importReport(f.msgs, goodLabel(len(f.held), "Import the good rows"), onGood, onCancel, noneGood)
}

// cellMessages lists a file's bad cells under its name, at most 50.
func cellMessages(name string, errs []*dataset.CellError) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return append([]string{name + " has bad rows:"}, limit(msgs, 50)...)
}

// limit keeps the first n messages and says how many more there are.
func limit(msgs []string, n int) []string {
	if len(msgs) <= n {
		return msgs
	}
	return append(append([]string(nil), msgs[:n]...), fmt.Sprintf("… and %d more", len(msgs)-n))
}

// importReport lists what was wrong with an imported file. When part of it
// was good (goodLabel not empty) it offers to import that part or cancel;
// otherwise it says noneGood, if anything.
func importReport(msgs []string, goodLabel string, onGood, onCancel app.EventHandler, noneGood string) app.UI {
	return app.If(len(msgs) > 0,
		app.Div().ID("import-report").Class("callout warn").Aria("live", "polite").Body(
			app.Ul().Body(app.Range(msgs).Slice(func(i int) app.UI { return app.Li().Text(msgs[i]) })),
			app.If(goodLabel != "",
				app.P().Body(
					app.Button().ID("import-good").Text(goodLabel).OnClick(onGood),
					app.Text(" "),
					app.Button().ID("import-cancel").Text("Cancel").OnClick(onCancel),
				),
			).ElseIf(noneGood != "", app.P().Text(noneGood)),
		),
	)
}

// goodLabel is label when there are good items to import, else "".
func goodLabel(good int, label string) string {
	if good == 0 {
		return ""
	}
	return label
}

func lineOf(t *dataset.Table, row int) int {
	if t != nil && row >= 0 && row < len(t.Lines) {
		return t.Lines[row]
	}
	return row + 1
}
