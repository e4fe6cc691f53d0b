package app

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
	"memwall/engine/fit"
)

func (p *speedupPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.notice = ""
		if t, ok := p.imp.readTable(name, data, err); ok {
			p.useFile(ctx, name, t)
		}
	})
}

// onImportGood imports the good rows of a file with bad ones, once the
// user has seen the list and agreed.
func (p *speedupPage) onImportGood(ctx app.Context, e app.Event) {
	g, ok := p.imp.goodRows()
	if !ok {
		return
	}
	p.useFile(ctx, g.name, g.table)
	p.notice = fmt.Sprintf("Imported %d rows of %s; %d bad cell(s) were left out.", g.table.Len(), g.name, g.skipped)
}

func (p *speedupPage) onImportCancel(ctx app.Context, e app.Event) { p.imp.cancel() }

func (p *speedupPage) useFile(ctx app.Context, name string, t *dataset.Table) {
	if len(numericColumns(t)) == 0 {
		p.imp.err = name + ": no column holds numbers"
		return
	}
	terms, region := p.text["terms"], p.text["region"]
	p.file, p.fileName = t, name
	p.setData(fileData)
	// Keep the model the user built if the file has what it reads.
	frame := frameFor(t, p.nCol, p.pCol)
	kept := ""
	if _, err := fit.Fit(frame, fit.Spec{Y: p.yCol, Terms: mustTerms(terms), Weighting: fit.Absolute}); err == nil || errors.Is(err, fit.ErrTooFewPoints) {
		p.text["terms"] = terms
		// The region is kept only if it selects enough of the new rows
		// to fit the terms; else it is set to fit the new data.
		if regionRows(frame, region) > len(mustTerms(terms)) {
			p.text["region"] = region
		} else {
			p.text["region"] = regionFor(frame, len(mustTerms(terms)))
			kept = fmt.Sprintf(" The characterisation region %q selected too few of its rows; it is now %q.", region, p.text["region"])
		}
	}
	p.showText()
	p.stopSearch()
	p.search, p.searchErr = nil, ""
	p.update(ctx)
	p.notice = fmt.Sprintf("Imported %s: %d rows, columns %s.%s", name, t.Len(), strings.Join(t.Names(), ", "), kept)
}

func mustTerms(s string) []fit.Term {
	t, _ := fit.ParseTerms(s)
	return t
}

// regionRows counts the rows a region selects, 0 for one that does not
// parse or read.
func regionRows(f fit.Frame, region string) int {
	c, err := fit.ParseCond(region)
	if err != nil {
		return 0
	}
	train, _, err := fit.Split(f, c)
	if err != nil {
		return 0
	}
	return len(train)
}

// regionFor is a characterisation region for new data: the rows up to the
// median N (the small problems fitted, the large ones predicted), when
// that leaves more rows than terms; every row otherwise.
func regionFor(f fit.Frame, terms int) string {
	ns, ok := f.Column("N")
	if !ok || len(ns) == 0 {
		return ""
	}
	sorted := append([]float64(nil), ns...)
	slices.Sort(sorted)
	med := sorted[(len(sorted)-1)/2]
	r := "N <= " + strconv.FormatFloat(med, 'g', -1, 64)
	if n := regionRows(f, r); n > terms && n < len(ns) {
		return r
	}
	return ""
}
