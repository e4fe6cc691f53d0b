package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/presets"
)

// Import.

func (p *dataPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.notice = ""
		if err == nil && presets.IsValidationReport(data) {
			if p.useReport(name, data) {
				p.writeURL(ctx)
			}
			return
		}
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

// useReport shows a report written by `memwall validate --json`: its rows
// predicted on its machine as the library holds it now, by size class, as
// the shipped tables are (compareValidation). A report that does not
// read, or whose machine the library does not hold, changes nothing and
// says why; it returns whether the report is shown.
func (p *dataPage) useReport(name string, data []byte) bool {
	p.imp.reset()
	s, err := presets.ParseValidationReport(data)
	if err != nil {
		p.imp.err = name + ": " + err.Error() + ". Nothing was changed."
		return false
	}
	if s.Machine == "" {
		p.imp.err = name + `: a validate report that names no machine (its "machine" field). Nothing was changed.`
		return false
	}
	if _, ok := p.lib.find(s.Machine); !ok {
		p.imp.err = fmt.Sprintf("%s: a validate run on machine %s, which is not in your library: import its machine file (the one memwall calibrate wrote) on the Machines page, then this report again. Nothing was changed.", name, quoteShort(s.Machine))
		return false
	}
	sizes := s.Sizes
	if sizes == "" {
		sizes = "its own"
	}
	s.ID, s.Title = reportData, name
	s.Source = fmt.Sprintf("%s: a memwall validate run on %s (%s sizes, %d rows), each row predicted again on the machine as your library holds it.", name, s.Machine, sizes, len(s.Rows))
	p.report, p.data, p.cellSkipped = &s, reportData, nil
	p.recompute()
	p.notice = fmt.Sprintf("Imported %s: %d of %d rows compared.", name, len(p.cmp.Rows), len(s.Rows))
	return true
}
