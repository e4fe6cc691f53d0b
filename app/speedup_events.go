package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/presets"
)

// Event handlers.

func (p *speedupPage) onData(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	if id == fileData && p.file == nil {
		return
	}
	p.setData(id)
	p.stopSearch()
	p.search, p.searchErr = nil, ""
	p.update(ctx)
}

func (p *speedupPage) onColumn(which string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		v := inputValue(ctx)
		switch which {
		case "y":
			p.yCol = v
		case "n":
			p.nCol = v
		case "p":
			p.pCol = v
		}
		p.update(ctx)
	}
}

func (p *speedupPage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		v := inputValue(ctx)
		if key == "n" && p.text["pto"] == defaultPTo(p.frame(), p.text["n"]) {
			// "P to" follows N while the user has not set it.
			p.setText("pto", defaultPTo(p.frame(), v))
		}
		p.text[key] = v
		if key == "terms" || key == "region" {
			p.model = ""
		}
		p.update(ctx)
	}
}

func (p *speedupPage) onWeighting(ctx app.Context, e app.Event) {
	if w, err := fit.ParseWeighting(inputValue(ctx)); err == nil {
		p.weighting = w
	}
	p.update(ctx)
}

// onTermSet takes the terms of a functional form, or the terms and region
// of a published fit.
func (p *speedupPage) onTermSet(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	if m, ok := presets.FittedModelByID(id); ok {
		p.setText("terms", m.Terms)
		p.setText("region", m.Region)
		p.model = m.ID
	} else {
		for _, ts := range presets.TermSets() {
			if ts.ID == id {
				p.setText("terms", ts.Terms)
				p.model = ""
			}
		}
	}
	p.update(ctx)
}

// onDownloadScenario offers the inputs as a scenario file, which memwall
// fit reads with --scenario. An imported file's data is not in it.
func (p *speedupPage) onDownloadScenario(ctx app.Context, e app.Event) {
	download("memwall-speedup.json", "application/json", speedup.Form.JSON(p.inputs()))
}

func (p *speedupPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "speedup-link")
}

func (p *speedupPage) onDownload(ctx app.Context, e app.Event) {
	if p.out.res == nil {
		return
	}
	download("memwall-fit.csv", "text/csv", predictionsCSV(p.tbl, p.frame(), p.yCol, p.out.res))
}
