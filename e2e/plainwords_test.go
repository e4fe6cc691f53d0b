package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestAtLeastOnlyWhereABoundHolds: the permutation product with Y in cache
// (n = 1Ki, wN <= C) is no lower bound and does not say "at least"; at
// n = 16Mi it does. The sweep says in words how the compared kernel
// relates: its time ratio and where the two cross (point 4).
func TestAtLeastOnlyWhereABoundHolds(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine=p4-2.66-ddr266&kernel=perm&n=1Ki", "#total")
	if got := b.text(t, ".total"); strings.Contains(got, "at least") || !strings.Contains(got, "not a bound") {
		t.Errorf("n = 1Ki, Y in cache: %q", got)
	}
	b.open(t, srv.URL+"/#machine=p4-2.66-ddr266&kernel=perm&n=16Mi", "#total")
	if got := b.text(t, ".total"); !strings.Contains(got, "at least") {
		t.Errorf("n = 16Mi: %q", got)
	}
	b.waitFor(t, "the sweep summary", `document.querySelector("#sweep-chart-summary")`)
	if s := b.text(t, "#sweep-chart-summary"); !strings.Contains(s, "two-pass") || !strings.Contains(s, "×") || !strings.Contains(s, "cross") {
		t.Errorf("sweep summary %q lacks the ratio and crossover", s)
	}
	// Y fits in the 512 KiB cache up to n = 128Ki four-byte words: there
	// the curve is shaded and said to be no bound.
	if s := b.text(t, "#sweep-chart-summary"); !strings.Contains(s, "not a bound from n = 1Ki") {
		t.Errorf("sweep summary %q does not say where the formula is no bound", s)
	}
	var shaded bool
	b.eval(t, `!!echarts.getInstanceByDom(document.getElementById("sweep-chart")).getOption().series[0].markArea`, &shaded)
	if !shaded {
		t.Error("the sweep does not shade where the formula is no bound")
	}
	b.screenshot(t, "kernels-perm-not-bound")
	b.noErrors(t, "bounds")
}

// TestChartsSayWhatTheyShow: every chart's accessible text is the page's
// label and summary, not ECharts' "It consists of … series count"; the
// bandwidth axis spans the machines' decades; legends stop short of the
// export icons (point 7).
func TestChartsSayWhatTheyShow(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, page := range []string{"/machines", "/"} {
		b.open(t, srv.URL+page, ".chart")
		b.waitFor(t, "charts drawn", `[...document.querySelectorAll(".chart")].every(el => el.querySelector("svg"))`)
		var labels []string
		b.eval(t, `[...document.querySelectorAll(".chart")].map(el => el.getAttribute("aria-label"))`, &labels)
		for _, l := range labels {
			if strings.Contains(l, "series") || strings.Contains(l, "consists of") || l == "" {
				t.Errorf("%s: chart text %q", page, l)
			}
		}
		var legendsClear bool
		b.eval(t, `[...document.querySelectorAll(".chart")].every(el => (echarts.getInstanceByDom(el).getOption().legend || []).every(l => l.orient === "vertical" || l.bottom !== undefined && l.bottom !== "auto" || l.right >= 64 || parseFloat(l.width) <= 80))`, &legendsClear)
		if !legendsClear {
			t.Errorf("%s: a legend runs under the export icons", page)
		}
	}
	b.open(t, srv.URL+"/machines", "#bandwidth-chart")
	b.waitFor(t, "bandwidth chart", `document.querySelector("#bandwidth-chart svg")`)
	var decades float64
	b.eval(t, `(() => { const e = echarts.getInstanceByDom(document.getElementById("bandwidth-chart")).getModel().getComponent("xAxis", 0).axis.scale.getExtent(); return Math.log10(e[1] / e[0]); })()`, &decades)
	if decades > 4 {
		t.Errorf("the bandwidth axis spans %v decades; the presets span about two", decades)
	}
	if s := b.text(t, "#bandwidth-chart-summary"); !strings.Contains(s, "machines") || !strings.Contains(s, "β1 from") {
		t.Errorf("bandwidth summary %q", s)
	}
	b.noErrors(t, "charts")
}

// TestPhoneTables: at 390×844 every wide table either fits or shows that
// it scrolls; the breakdown's Formula column is readable (point 8). The
// machine's symbols are explained in visible text (point 9).
func TestPhoneTables(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.phone(t)
	for _, page := range []string{"/machines", "/", "/supersteps"} {
		b.open(t, srv.URL+page, "main h1")
		b.waitFor(t, "tables marked", `[...document.querySelectorAll(".table-wrap")].every(w => w.scrollWidth <= w.clientWidth + 1 || w.classList.contains("scrolls"))`)
		var cue string
		b.eval(t, `(() => { const w = document.querySelector(".table-wrap.scrolls"); return w ? getComputedStyle(w, "::before").content : "none"; })()`, &cue)
		if cue != "none" && !strings.Contains(cue, "scroll") {
			t.Errorf("%s: a wide table's cue reads %q", page, cue)
		}
	}
	b.open(t, srv.URL+"/", "#terms")
	var width float64
	b.eval(t, `Math.min(...[...document.querySelectorAll("#terms td:last-child")].map(td => td.getBoundingClientRect().width))`, &width)
	if width < 80 {
		t.Errorf("the Formula column is %v px wide on a phone", width)
	}
	var meaning string
	b.eval(t, `[...document.querySelectorAll(".machine-summary .meaning")].filter(e => e.offsetParent !== null).map(e => e.textContent).join("; ")`, &meaning)
	if !strings.Contains(meaning, "sequential bandwidth") || !strings.Contains(meaning, "cache line") {
		t.Errorf("the machine's symbols are not explained visibly: %q", meaning)
	}
	b.noErrors(t, "phone tables")
}

// TestDoubtfulFitsFlagged: a fit whose mean error is past 50% (S1 on the
// built-in table) is flagged in its row, in words (point 9).
func TestDoubtfulFitsFlagged(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/communication", "#fit-table")
	b.waitFor(t, "the S1 row", `document.querySelector("#fit-S1-mean-train")`)
	var rows []struct {
		ID, Mean, Doubt string
	}
	b.eval(t, `[...document.querySelectorAll("#fit-table tbody tr")].map(tr => ({ID: tr.id, Mean: (tr.querySelector('[id$="-mean-train"]')||{}).textContent || "", Doubt: (tr.querySelector(".doubt")||{}).textContent || ""}))`, &rows)
	flagged := 0
	for _, r := range rows {
		var pct float64
		if _, err := fmt.Sscanf(strings.TrimSpace(r.Mean), "%g", &pct); err != nil {
			continue
		}
		if pct > 50 && !strings.Contains(r.Doubt, "mean error") {
			t.Errorf("%s: mean error %s shown without a warning", r.ID, r.Mean)
		}
		if r.Doubt != "" {
			flagged++
		}
	}
	if flagged == 0 {
		t.Errorf("no fit flagged; rows %v", rows)
	}
	b.noErrors(t, "doubtful fits")
}
