package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memwall/presets"
)

// TestPaperPage opens the replication of the MBRAM paper: the table, the Fig. 1
// sentence, the across-machines chart with a machine of the user's, and a
// row's link to the Kernels page.
func TestPaperPage(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)

	// A machine of the user's, as the Machines page stores it.
	b.open(t, srv.URL+"/paper", "#replication-table")
	b.eval(t, `localStorage.setItem("memwall.machines.v1", JSON.stringify([{"id":"my-lab-box","name":"Lab box","beta1":"12.8 GB/s","beta2":"1.1 GB/s","mu1":2,"cache":"32 MiB","line":"64 B","mispredict":"5.2 ns"}]))`, nil)
	b.open(t, srv.URL+"/paper", "#replication-table")

	var rows int
	b.eval(t, `document.querySelectorAll("#replication-table tbody tr").length`, &rows)
	if rows != 19 {
		t.Errorf("the table has %d rows, want the MBRAM paper's 19 printed predictions", rows)
	}
	// The MBRAM paper's Fig. 5: quicksort printed 1.51 s; memwall gives 1.514 s.
	const qs = `#replication-table tr[data-figure="Fig. 5"][data-kernel="quicksort"]`
	if got := b.text(t, qs+" .printed"); got != "1.51" {
		t.Errorf("Fig. 5 quicksort printed %q, want 1.51", got)
	}
	if got := b.text(t, qs+" .engine"); got != "1.514" {
		t.Errorf("Fig. 5 quicksort memwall %q, want 1.514", got)
	}
	if got := b.text(t, qs+" .agree"); got != "yes" {
		t.Errorf("Fig. 5 quicksort agree %q", got)
	}
	if got := b.text(t, `#replication-table tr[data-kernel="bucket"] .agree`); !strings.HasPrefix(got, "no") || !strings.Contains(got, "[3]") {
		t.Errorf("the simple bucket sort's agree cell %q, want no with footnote [3]", got)
	}
	if got := b.text(t, "#note-3"); !strings.Contains(got, "C in bytes") {
		t.Errorf("footnote 3: %q", got)
	}
	if got := b.text(t, "#lower-bound"); !strings.Contains(got, "lower bound") {
		t.Errorf("the page does not say the formulas are lower bounds: %q", got)
	}

	verdict := b.text(t, "#fig1-verdict")
	_, win, ok := strings.Cut(verdict, "to win on")
	if !ok || !strings.Contains(win, "1.7 GHz Pentium 4") || !strings.Contains(win, "2.66 GHz Pentium 4") || strings.Contains(win, "Pentium II") {
		t.Errorf("Fig. 1 sentence %q should say two-pass wins on the two Pentium 4s only", verdict)
	}

	b.waitFor(t, "charts drawn", `[...document.querySelectorAll(".chart")].every(el => el.querySelector("svg"))`)
	var lines int
	b.eval(t, `echarts.getInstanceByDom(document.getElementById("across-chart")).getOption().series.length`, &lines)
	if want := 2 * (len(presets.Machines()) + 1); lines != want {
		t.Errorf("the across-machines chart has %d lines, want %d: two kernels on every preset and the user's machine", lines, want)
	}
	var hasLab bool
	b.eval(t, `echarts.getInstanceByDom(document.getElementById("across-chart")).getOption().series.some(s => s.name.startsWith("Lab box"))`, &hasLab)
	if !hasLab {
		t.Error("the user's machine is not on the across-machines chart")
	}
	var markers int
	b.eval(t, `echarts.getInstanceByDom(document.getElementById("fig1-chart")).getOption().series.reduce((n, s) => n + ((s.markPoint && s.markPoint.data) || []).length, 0)`, &markers)
	if markers != 8 {
		t.Errorf("the Fig. 1 chart has %d measured markers, want 8", markers)
	}
	b.screenshot(t, "paper")

	// The kernel choice goes into the address and redraws the chart.
	b.choose(t, "#across-kernel", "quicksort")
	b.waitFor(t, "kernel in the URL", `location.hash === "#kernel=quicksort"`)
	b.waitFor(t, "one line per machine", fmt.Sprintf(`echarts.getInstanceByDom(document.getElementById("across-chart")).getOption().series.length === %d`, len(presets.Machines())+1))
	b.noErrors(t, "paper")

	b.phone(t)
	b.open(t, srv.URL+"/paper", "#replication-table")
	var overflow bool
	b.eval(t, `document.documentElement.scrollWidth > window.innerWidth + 1`, &overflow)
	if overflow {
		t.Error("the Paper page is wider than a phone screen")
	}
	b.waitFor(t, "charts drawn", `[...document.querySelectorAll(".chart")].every(el => el.querySelector("svg"))`)
	b.screenshot(t, "paper-phone")

	// A row's link opens the Kernels page with that prediction.
	b.run(t, chromedp.Click(qs+" a.open-kernel", chromedp.ByQuery), appReady("#total"))
	b.waitFor(t, "the Kernels page", `location.pathname === "/"`)
	if got := b.text(t, "#total"); !strings.HasPrefix(got, "1.51") {
		t.Errorf("the row's link predicts %q, want 1.51 s", got)
	}
	frag := fragment(t, b.location(t))
	for _, want := range []string{"machine=p4-1.7-pc133", "kernel=quicksort", "n=8Mi"} {
		if !strings.Contains(frag, want) {
			t.Errorf("Kernels page fragment %q lacks %q", frag, want)
		}
	}
	b.noErrors(t, "paper link")
}
