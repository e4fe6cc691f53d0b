package e2e

import (
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// sitePages lists the site's pages from its HTML files, so a page added to
// the app is tested without touching this file.
func sitePages(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in %s (%v)", dir, err)
	}
	var pages []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		if name == "index" {
			name = ""
		}
		pages = append(pages, "/"+name)
	}
	sort.Strings(pages)
	return pages
}

func shotName(page string) string {
	if page == "/" {
		return "kernels"
	}
	return strings.Trim(page, "/")
}

// TestPagesLoad opens every page, checks that it renders with no console
// error, and saves a screenshot at desktop and phone sizes.
func TestPagesLoad(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, page := range sitePages(t, siteDir) {
		b.open(t, srv.URL+page, "main h1")
		if h1 := b.text(t, "main h1"); h1 == "" {
			t.Errorf("%s: empty heading", page)
		}
		var title string
		b.eval(t, `document.title`, &title)
		if !strings.Contains(title, "memwall") {
			t.Errorf("%s: title %q", page, title)
		}
		b.waitFor(t, "charts drawn", `[...document.querySelectorAll(".chart")].every(el => el.querySelector("svg"))`)
		b.screenshot(t, shotName(page))
		b.noErrors(t, page)
	}
	b.phone(t)
	for _, page := range sitePages(t, siteDir) {
		b.open(t, srv.URL+page, "main h1")
		var overflow bool
		b.eval(t, `document.documentElement.scrollWidth > window.innerWidth + 1`, &overflow)
		if overflow {
			t.Errorf("%s: wider than a phone screen", page)
		}
		b.screenshot(t, shotName(page)+"-phone")
		b.noErrors(t, page+" (phone)")
	}
}

// TestNavigation follows the menu: in-app navigation, no reload.
func TestNavigation(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	b.eval(t, `window.__sameDocument = true`, nil)
	b.run(t, clickText("nav a", "Machines"), appReady("#presets"))
	if got := b.location(t); got != srv.URL+"/machines" {
		t.Errorf("after the Machines link: at %s", got)
	}
	var same bool
	b.eval(t, `window.__sameDocument === true`, &same)
	if !same {
		t.Error("the menu reloaded the page instead of navigating in the app")
	}
	var current string
	b.eval(t, `document.querySelector('nav a[aria-current="page"]').textContent`, &current)
	if current != "Machines" {
		t.Errorf("aria-current on %q, want Machines", current)
	}
	b.noErrors(t, "navigation")
}

// TestKeyboard checks that the skip link and the first form controls are
// reachable with Tab.
func TestKeyboard(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	// Tab until the n field has focus or the presses run out: the menu
	// grows with every page, so a fixed count would test the menu's length.
	var focused []string
	for i := 0; i < 40 && (len(focused) == 0 || focused[len(focused)-1] != "n"); i++ {
		var id string
		b.run(t, pressTab())
		b.eval(t, `(document.activeElement.id || document.activeElement.textContent || "").trim()`, &id)
		focused = append(focused, id)
	}
	joined := strings.Join(focused, "|")
	for _, want := range []string{"Skip to content", "machine", "kernel", "n"} {
		if !strings.Contains("|"+joined+"|", "|"+want+"|") {
			t.Errorf("Tab never reached %q; focus went %v", want, focused)
		}
	}
}

// TestChartExport exports the sweep chart as SVG and as PNG (the toolbox's
// buttons call the same functions) and checks the files are of the chart.
func TestChartExport(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	b.waitFor(t, "the sweep chart", `document.querySelector("#sweep-chart svg")`)
	file := b.downloadBy(t, t.TempDir(), chromedp.Evaluate(`memwallChart.exportSVG(document.getElementById("sweep-chart"))`, nil), "<svg")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Quicksort", "predicted time", "8Mi"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}

	// PNG at twice the chart's size in CSS pixels (pixelRatio 2).
	var width int
	b.eval(t, `document.getElementById("sweep-chart").clientWidth`, &width)
	file = b.downloadBy(t, t.TempDir(), chromedp.Evaluate(`memwallChart.exportPNG(document.getElementById("sweep-chart"))`, nil), "PNG")
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the PNG export does not decode: %v", err)
	}
	if got := img.Bounds().Dx(); got != 2*width {
		t.Errorf("the PNG is %d pixels wide; want %d (twice the chart's %d)", got, 2*width, width)
	}
	b.noErrors(t, "export")
}

func TestScreenshotsDir(t *testing.T) {
	needBrowser(t)
	if _, err := os.Stat(outDir); err != nil {
		t.Fatal(err)
	}
}
