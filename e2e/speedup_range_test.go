package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSpeedupPRange draws the speedup chart for Ps beyond those measured
// (Table 6 stops at P = 512, and the chart used to stop at twice that):
// for N = 8192, "P to" = 8192 gives a table row for P = 8192 and goes
// into the link; a fraction in "P from" and a "P to" above N are refused
// with the field and its range named.
func TestSpeedupPRange(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+eq14Link, "#speedup-table")
	b.retype(t, "#n", "8192")
	b.waitFor(t, "the chart for N = 8192", `/N = 8Ki/.test(document.querySelector("#speedup h2").textContent)`)
	b.retype(t, "#pto", "8192")
	b.waitFor(t, "a row for P = 8192", `[...document.querySelectorAll("#speedup-table tbody th")].some(th => th.textContent.trim() === "8192")`)
	if u := b.location(t); !strings.Contains(u, "pto=8192") {
		t.Errorf("the link %s does not hold P to = 8192", u)
	}
	b.run(t, chromedp.ScrollIntoView("#speedup-chart", chromedp.ByQuery))
	b.screenshot(t, "speedup-prange")
	b.retype(t, "#pfrom", "1.5")
	b.waitFor(t, "P from refused", `document.querySelector("#pfrom-err")`)
	if e := b.text(t, "#pfrom-err"); !strings.Contains(e, "P from") || !strings.Contains(e, "whole number") {
		t.Errorf("P from = 1.5: message %q does not name the field and the accepted range", e)
	}
	b.retype(t, "#pfrom", "2")
	b.retype(t, "#pto", "16384")
	b.waitFor(t, "P to refused", `document.querySelector("#pto-err")`)
	if e := b.text(t, "#pto-err"); !strings.Contains(e, "P to") || !strings.Contains(e, "at most 8Ki") {
		t.Errorf("P to = 16384 at N = 8192: message %q does not name the field and its bound", e)
	}
	b.noErrors(t, "speedup P range")
}

// axisNameInside reports whether the SVG text of a chart's axis name lies
// wholly inside the chart's container, with the two rectangles.
const axisNameInside = `((id, name) => {
	const box = document.getElementById(id);
	const t = box && [...box.querySelectorAll("svg text")].find(e => e.textContent.trim() === name);
	if (!t) return "no text " + name;
	const r = t.getBoundingClientRect(), c = box.getBoundingClientRect();
	const ok = r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5;
	return ok ? "" : JSON.stringify({text: [r.left, r.top, r.right, r.bottom], chart: [c.left, c.top, c.right, c.bottom]});
})`

// TestSpeedupYAxisTitle checks that the y-axis names of both Speedup
// charts are drawn wholly inside their charts at desktop and phone size:
// centred on the axis, as before, "speedup S(N, P)" ran off the left edge.
func TestSpeedupYAxisTitle(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, size := range []string{"desktop", "phone"} {
		if size == "phone" {
			b.phone(t)
		}
		b.freshOpen(t, srv.URL+eq14Link, "#speedup-table")
		for _, c := range [][2]string{{"speedup-chart", "speedup S(N, P)"}, {"fit-chart", "predicted"}} {
			js := fmt.Sprintf("%s(%q, %q)", axisNameInside, c[0], c[1])
			b.waitFor(t, c[0]+" drawn", fmt.Sprintf("%s(%q, %q) !== %q", axisNameInside, c[0], c[1], "no text "+c[1]))
			var out string
			b.eval(t, js, &out)
			if out != "" {
				t.Errorf("%s: the y-axis name %q is cut by the chart's edge: %s", size, c[1], out)
			}
		}
		b.run(t, chromedp.ScrollIntoView("#speedup-chart", chromedp.ByQuery))
		b.screenshot(t, "speedup-axis-"+size)
	}
	b.noErrors(t, "speedup y-axis title")
}

// TestSpeedupSearchResponsive runs the term search and checks that the page
// stays responsive while it runs (no gap of a second between timer ticks,
// only a render's worth; the search used to hold the page for all of its
// 1.3 s, and 3 s on a slow machine), that it shows how
// many term sets it has scored, and that Cancel stops it.
func TestSpeedupSearchResponsive(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+eq14Link, "#coef")
	b.eval(t, `(() => { window.__gap = 0; let last = performance.now(); window.__tick = setInterval(() => { const now = performance.now(); if (now - last > 150) (window.__gaps = window.__gaps || []).push([Math.round(last - (window.__t0 || 0)), Math.round(now - last), (document.querySelector("#search-status") || {}).textContent]); window.__gap = Math.max(window.__gap, now - last); last = now; }, 10); return true; })()`, nil)
	// The gap counts from the click on: the page's own start is not the
	// search's doing.
	b.eval(t, `new Promise(r => setTimeout(() => { window.__gap = 0; window.__gaps = []; window.__t0 = performance.now(); document.querySelector("#search-terms").click(); r(true); }, 300))`, nil)
	b.waitFor(t, "the search's progress", `document.querySelector("#search-progress").value >= 0.25 * document.querySelector("#search-progress").max && /\d+ of \d+ term sets/.test(document.querySelector("#search-status").textContent)`)
	b.eval(t, `document.querySelector("#search-cancel").click()`, nil)
	b.waitFor(t, "the search cancelled", `/cancelled/.test(document.querySelector("#search-error").textContent)`)
	var gap float64
	b.eval(t, `(() => { clearInterval(window.__tick); return window.__gap; })()`, &gap)
	var gaps any
	b.eval(t, `window.__gaps`, &gaps)
	t.Logf("gaps: %v", gaps)
	if gap > 1000 {
		t.Errorf("the page was blocked for %.0f ms during the search", gap)
	}
	b.run(t, chromedp.ScrollIntoView("#search", chromedp.ByQuery))
	b.screenshot(t, "speedup-search-cancelled")
	var n int
	b.eval(t, `document.querySelectorAll("#candidates tbody tr").length`, &n)
	if n != 0 {
		t.Errorf("a cancelled search shows %d candidates", n)
	}
	b.noErrors(t, "speedup search")
}
