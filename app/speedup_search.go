package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/fit"
	"memwall/engine/speedup"
)

// The term search scores hundreds of term sets and takes a second or more
// in a browser, so it runs as a job (see job.go), as a Simulate run does:
// every yieldEvery of work it shows its progress and gives the browser a
// turn, so the page renders, takes typing and takes Cancel while it
// searches.

// searchCount is how far a running search has come, for the message of a
// cancelled search.
type searchCount struct {
	done, total atomic.Int64
}

// onSearch starts the term search in the background.
func (p *speedupPage) onSearch(ctx app.Context, e app.Event) {
	if p.searching || p.tbl == nil {
		return
	}
	spec, err := p.searchSpec()
	if err != nil {
		p.search, p.searchErr = nil, err.Error()
		return
	}
	p.stopSearch()
	count := &searchCount{}
	p.searching, p.search, p.searchErr, p.searchDone, p.searchTotal = true, nil, "", 0, 0
	frame := p.frame()
	var res *fit.SearchResult
	// A report writes two nodes rather than render the page: twice as
	// often as a render, from the first 100 ms on.
	p.searchJob.every, p.searchJob.late = reportEvery/2, true
	p.searchJob.start(ctx, func(rctx context.Context, t *jobTask) error {
		spec.Progress = func(done, total int) error {
			if err := rctx.Err(); err != nil {
				return err
			}
			count.done.Store(int64(done))
			count.total.Store(int64(total))
			t.tick(func(time.Time) func(app.Context) {
				showSearchProgress(done, total)
				return nil
			})
			return nil
		}
		r, err := fit.Search(frame, spec)
		res = r
		return err
	}, func(ctx app.Context, err error, t *jobTask) {
		p.searching, p.searchMillis = false, float64(t.wall.Microseconds())/1e3
		p.searchDone, p.searchTotal = int(count.done.Load()), int(count.total.Load())
		switch {
		case errors.Is(err, context.Canceled):
			p.searchErr = fmt.Sprintf("The search was cancelled after %d of %d term sets; nothing was changed.", p.searchDone, p.searchTotal)
		case err != nil:
			p.searchErr = "The search failed: " + err.Error()
		default:
			p.search = res
		}
	})
}

// showSearchProgress runs on the search goroutine now and then. It writes
// the count into the progress bar and status line itself: a render of the
// whole page (its tables of up to 300 rows) costs hundreds of milliseconds
// in a browser, which a render per report would add to the search and take
// from the user.
func showSearchProgress(done, total int) {
	if !app.IsClient {
		return
	}
	doc := app.Window().Get("document")
	if el := doc.Call("getElementById", "search-progress"); el.Truthy() {
		el.Set("max", total)
		el.Set("value", done)
	}
	// the text node go-app rendered, so its later updates still land
	if el := doc.Call("getElementById", "search-status"); el.Truthy() && el.Get("firstChild").Truthy() {
		el.Get("firstChild").Set("nodeValue", searchStatus(done, total))
	}
}

// searchStatus is the status line of a running search.
func searchStatus(done, total int) string {
	if total <= 0 {
		return "Searching…"
	}
	return fmt.Sprintf("Searching… %d of %d term sets scored (%d %%).", done, total, min(100, 100*done/total))
}

// onSearchCancel stops the running search; the page keeps what it had.
func (p *speedupPage) onSearchCancel(ctx app.Context, e app.Event) {
	if !p.searching {
		return
	}
	p.searchJob.cancelRun()
}

// stopSearch drops a running search silently (the data or link changed).
func (p *speedupPage) stopSearch() {
	p.searchJob.stop()
	p.searching = false
}

// searchSpec searches Chittor's thesis's vocabulary restricted to the columns the
// data has, with the constant always in, validated by extrapolation along
// N and P as the thesis predicts beyond its characterisation region.
func (p *speedupPage) searchSpec() (fit.SearchSpec, error) {
	if p.yCol == "" {
		return fit.SearchSpec{}, errors.New("choose the measured column first")
	}
	have := map[string]bool{}
	if p.nCol != "" {
		have["N"] = true
	}
	if p.pCol != "" {
		have["P"] = true
	}
	extra, _ := fit.ParseTerms("N*log2(N)^2, N^2, log2(N)")
	var vocab []fit.Term
	seen := map[string]bool{"1": true}
	for _, t := range append(speedup.Vocabulary(), extra...) {
		ok := !seen[t.Canonical()]
		for _, v := range t.Vars() {
			ok = ok && have[v]
		}
		if ok {
			seen[t.Canonical()] = true
			vocab = append(vocab, t)
		}
	}
	if len(vocab) == 0 {
		return fit.SearchSpec{}, errors.New("the search needs a problem-size column (N) or a processor column (P)")
	}
	train, _, err := fit.Split(p.frame(), p.spec.cond)
	if err != nil {
		return fit.SearchSpec{}, err
	}
	if len(train) > bigData {
		return fit.SearchSpec{}, fmt.Errorf("the characterisation region has %d rows; the search in the browser takes at most %d (narrow the region, or run memwall fit on the command line)", len(train), bigData)
	}
	var ex []string
	for _, v := range []string{"N", "P"} {
		if have[v] {
			ex = append(ex, v)
		}
	}
	return fit.SearchSpec{
		Y: p.yCol, Vocabulary: vocab, Always: []fit.Term{fit.MustParseTerm("1")}, MaxTerms: 4,
		Train: p.spec.cond, Weighting: p.weighting, Validation: fit.Validation{Extrapolate: ex},
	}, nil
}

func (p *speedupPage) onUseCandidate(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if p.search == nil || i >= len(p.search.Candidates) {
			return
		}
		c := p.search.Candidates[i]
		p.setText("terms", strings.Join(fit.TermStrings(c.Terms), ", "))
		p.model = ""
		if p.weighting == fit.Auto {
			p.weighting = c.Weighting
		}
		p.update(ctx)
	}
}

func (p *speedupPage) renderSearch() app.UI {
	s := p.search
	status := searchStatus(p.searchDone, p.searchTotal)
	return app.Section().ID("search").Class("panel").Aria("label", "Term search").Body(
		app.H2().Text("Search for terms"),
		app.P().Class("note").Text("Tries every set of up to four terms from Chittor's vocabulary (1, P, P·log P, N/P·log²P, N/P·log²(N/P), log P·N/P·log²(N/P), N·log N, …), each with the constant, fitted on the characterisation region and scored by how well it extrapolates to that region's largest N and P. The prediction region is never looked at. It takes a few seconds; the page stays usable meanwhile."),
		app.Div().Class("row actions").Body(
			app.Button().ID("search-terms").Disabled(p.searching).Text("Search").OnClick(p.onSearch),
			app.If(p.searching, app.Button().ID("search-cancel").Text("Cancel").OnClick(p.onSearchCancel)),
		),
		app.If(p.searching, app.Progress().ID("search-progress").Max(max(p.searchTotal, 1)).Value(p.searchDone).Aria("label", "Term search progress")),
		app.If(p.searching, app.P().ID("search-status").Aria("live", "polite").Text(status)),
		app.If(p.searchErr != "", app.P().ID("search-error").Class("error").Text(p.searchErr)),
		app.If(s != nil, p.renderCandidates()),
	)
}

func (p *speedupPage) renderCandidates() app.UI {
	s := p.search
	if s == nil {
		return app.Div()
	}
	cands := s.Candidates
	if len(cands) > 10 {
		cands = cands[:10]
	}
	return app.Div().Body(
		app.P().ID("search-method").Text(fmt.Sprintf("%d term sets scored (%s) in %.0f ms; %s.", s.Evaluated, exhaustive(s.Exhaustive), p.searchMillis, s.Method)),
		app.Div().Class("table-wrap").Body(app.Table().ID("candidates").Body(
			app.Caption().Text("Best term sets, best first"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Terms"),
				app.Th().Scope("col").Text("weighting"),
				numTh().Text("mean rel."),
				numTh().Text("median rel."),
				numTh().Text("max rel."),
				app.Th().Scope("col").Body(app.Span().Class("visually-hidden").Text("Action")),
			)),
			app.TBody().Body(app.Range(cands).Slice(func(i int) app.UI {
				c := cands[i]
				return app.Tr().Body(
					app.Td().Body(app.Code().Text(strings.Join(fit.TermStrings(c.Terms), ", "))),
					app.Td().Text(c.Weighting.String()),
					app.Td().Class("num").Text(fmtPct(c.MeanRel)),
					app.Td().Class("num").Text(fmtPct(c.MedianRel)),
					app.Td().Class("num").Text(fmtPct(c.MaxRel)),
					app.Td().Class("actions").Body(app.Button().ID(fmt.Sprintf("use-candidate-%d", i)).Text("Use").
						Aria("label", fmt.Sprintf("Use term set %d", i+1)).OnClick(p.onUseCandidate(i))),
				)
			})),
		)),
	)
}

func exhaustive(b bool) string {
	if b {
		return "every subset"
	}
	return "greedy path"
}
