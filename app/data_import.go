package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
)

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
