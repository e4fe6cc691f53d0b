package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memwall/engine/dataset"
	"memwall/engine/fit"
	"memwall/engine/numl"
	"memwall/engine/units"
	"memwall/presets"
)

// engineLines is the engine's exact count and span for a shape, computed
// here so the page's numbers are checked against the engine itself.
func engineLines(t *testing.T, s numl.Shape) (int64, numl.Range) {
	t.Helper()
	u, err := numl.Lines(s)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := numl.Span(s)
	if err != nil {
		t.Fatal(err)
	}
	return u, sp
}

// TestCommunication opens the Communication page, changes the message and
// the convolution, checks the numbers shown against the engine, marks a
// bad field, and opens the share link in a fresh page.
func TestCommunication(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/communication", "#u")

	// Defaults: 3 columns of 4 bytes from 1000 rows of 4000 bytes, 64-byte
	// lines, offset 5.
	s := numl.Shape{Kind: numl.Columns, W: 4000, K: 3, Elem: 4, R: 1000, Line: 64, Offset: 5}
	u, sp := engineLines(t, s)
	if got := b.text(t, "#u"); got != fmt.Sprint(u) {
		t.Errorf("default u shown %q, engine %d", got, u)
	}
	if got := b.text(t, "#v-u-max"); got != fmt.Sprintf("%d (o = %d)", sp.Max, sp.MaxOffset) {
		t.Errorf("max shown %q, engine %+v", got, sp)
	}
	b.waitFor(t, "the lines picture", `document.querySelector("#lines-svg rect")`)
	b.waitFor(t, "the convolution chart", `document.querySelector("#conv-chart svg")`)
	b.screenshot(t, "communication-default")

	// Offset 21 is the worst alignment for this shape.
	b.retype(t, "#comm-o", "21")
	s.Offset = 21
	u, _ = engineLines(t, s)
	b.waitFor(t, "u at offset 21", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))

	// A narrow array where rows share lines: W = 20, k = 2, w = 4, r = 30.
	b.retype(t, "#comm-W", "20")
	b.retype(t, "#comm-k", "2")
	b.retype(t, "#comm-r", "30")
	b.retype(t, "#comm-o", "3")
	s = numl.Shape{Kind: numl.Columns, W: 20, K: 2, Elem: 4, R: 30, Line: 64, Offset: 3}
	u, sp = engineLines(t, s)
	b.waitFor(t, "u for the narrow array", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))
	if got := b.text(t, "#v-u-min"); got != fmt.Sprintf("%d (o = %d)", sp.Min, sp.MinOffset) {
		t.Errorf("min shown %q, engine %+v", got, sp)
	}
	var hits int
	b.eval(t, `document.querySelectorAll("#lines-svg g.hit").length`, &hits)
	if int64(hits) != u {
		t.Errorf("%d touched cells drawn, u = %d", hits, u)
	}
	b.screenshot(t, "communication-narrow")

	// Rows.
	b.choose(t, "#comm-kind", "rows")
	s = numl.Shape{Kind: numl.Rows, W: 20, K: 2, Line: 64, Offset: 3}
	u, _ = engineLines(t, s)
	b.waitFor(t, "u for rows", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))

	// A bad line size is named under its field, and the last results stay.
	b.retype(t, "#comm-L", "0")
	b.waitFor(t, "the line-size message", `document.querySelector("#comm-L-err") && document.querySelector("#comm-L-err").textContent.includes("Line size L")`)
	if got := b.text(t, "#u"); got != fmt.Sprint(u) {
		t.Errorf("u after a bad L: %q, want the last good %d", got, u)
	}
	b.retype(t, "#comm-L", "64")

	// The convolution: 8×8 image, 2×2 mesh, messages only; the crossover is
	// where the engine puts it (b = 4 by hand: 2(b − 1) > 5 messages).
	b.retype(t, "#comm-N", "8")
	b.retype(t, "#comm-pr", "2")
	b.retype(t, "#comm-pc", "2")
	b.retype(t, "#comm-bmax", "4")
	b.retype(t, "#comm-m1", "alpha=1ms")
	b.retype(t, "#comm-std", "alpha=1ms, beta=1us")
	conv := numl.Conv{N: 8, Elem: 4, Pr: 2, Pc: 2, Line: 64}
	m1, _ := numl.Compare(conv, numl.Coef{Alpha: 1e-3}, 4)
	std, _ := numl.Compare(conv, numl.Coef{Alpha: 1e-3, Beta: 1e-6}, 4)
	want := func(cv numl.Curve) string {
		if cv.Found {
			return fmt.Sprintf("b = %d", cv.Crossover)
		}
		return "none up to b = 4"
	}
	if m1.Crossover != 4 {
		t.Fatalf("engine crossover %+v, hand calculation b = 4", m1)
	}
	b.waitFor(t, "the M1 crossover", fmt.Sprintf(`document.querySelector("#cross-m1").textContent.trim() === %q`, want(m1)))
	// The standard model's field is typed after M1's, so its crossover may
	// still show the previous coefficients' answer for a moment: wait for it
	// too rather than read it once.
	b.waitFor(t, "the standard crossover", fmt.Sprintf(`document.querySelector("#cross-std").textContent.trim() === %q`, want(std)))
	var rows int
	b.eval(t, `document.querySelectorAll("#conv-table tbody tr").length`, &rows)
	if rows != 4 {
		t.Errorf("%d rows in the convolution table", rows)
	}
	b.screenshot(t, "communication-conv")

	// The link reproduces the page.
	link := b.location(t)
	frag := fragment(t, link)
	for _, k := range []string{"kind=rows", "W=20", "N=8", "m1=alpha%3D1ms"} {
		if !strings.Contains(frag, k) {
			t.Errorf("fragment %q lacks %s", frag, k)
		}
	}
	b.freshOpen(t, link, "#u")
	b.waitFor(t, "u from the link", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))
	if got := b.text(t, "#cross-m1"); got != want(m1) {
		t.Errorf("crossover from the link %q", got)
	}
	b.screenshot(t, "communication-link")
	b.noErrors(t, "communication")

	// A link with garbage lists what it could not use.
	b.freshOpen(t, srv.URL+"/communication#W=%3Cb%3Ex%3C/b%3E&zz=1", "#link-problems")
	if got := b.text(t, "#link-problems"); !strings.Contains(got, "Row width W") || !strings.Contains(got, "unknown key") {
		t.Errorf("link problems: %q", got)
	}
}

// shownFit is what the page should show for one fitted set, formatted the
// way the page formats it, from the engine's numbers.
func shownFit(r *fit.Result) map[string]string {
	rel := func(v float64, n int) string {
		if n == 0 {
			return "—"
		}
		if 100*v >= 1000 {
			return fmt.Sprintf("%.0f%%", 100*v)
		}
		return fmt.Sprintf("%.3g%%", 100*v)
	}
	d := func(st fit.Stats) string {
		if !st.DDefined {
			return "—"
		}
		return fmt.Sprintf("%.3g", st.D)
	}
	return map[string]string{
		"se-train": units.FormatSeconds(r.Train.SE), "D-train": d(r.Train),
		"mean-train": rel(r.Train.MeanRel, r.Train.RelN), "max-train": rel(r.Train.MaxRel, r.Train.RelN),
		"se-test": units.FormatSeconds(r.Test.SE), "D-test": d(r.Test),
		"mean-test": rel(r.Test.MeanRel, r.Test.RelN), "max-test": rel(r.Test.MaxRel, r.Test.RelN),
	}
}

// checkFits compares every statistic shown for the six sets with the
// engine's fit of the same data and training rows.
func checkFits(t *testing.T, b *browser, data fit.Columns, train string) []numl.SetFit {
	t.Helper()
	var cond fit.Cond
	if train != "" {
		var err error
		if cond, err = fit.ParseCond(train); err != nil {
			t.Fatal(err)
		}
	}
	sets, err := numl.FitSets(data, "time", cond, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if s.Err != nil {
			t.Fatalf("%s: %v", s.Set.Name, s.Err)
		}
		for key, want := range shownFit(s.Result) {
			if s.Result.Test.N == 0 && strings.HasSuffix(key, "-test") {
				want = "—"
			}
			if got := b.text(t, "#fit-"+s.Set.Name+"-"+key); got != want {
				t.Errorf("%s %s shown %q, engine %q", s.Set.Name, key, got, want)
			}
		}
	}
	return sets
}

// TestCommunicationFit opens the fitting section with the built-in
// measurements, checks the six fits' statistics against the engine, uses
// the S1 and M1 coefficients in the convolution, changes the training
// rows, and imports a file.
func TestCommunicationFit(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/communication", "#fit-table")

	tbl, err := presets.Dataset("numl-devbox")
	if err != nil {
		t.Fatal(err)
	}
	sets := checkFits(t, b, tbl, "W != 4000")
	b.waitFor(t, "the fit chart", `document.querySelector("#fit-chart svg")`)

	// The examples on the 8×32 mesh: the standard model's crossover is
	// b = 3, M1's b = 4 (engine/numl TestExampleCrossoverDisagrees).
	conv := numl.Conv{N: 1024, Elem: 4, Pr: 8, Pc: 32, Line: 64}
	exStd, exM1 := numl.ExampleCoefficients()
	cs, _ := numl.Compare(conv, exStd, 10)
	cm, _ := numl.Compare(conv, exM1, 10)
	if got := b.text(t, "#cross-std"); got != fmt.Sprintf("b = %d", cs.Crossover) || cs.Crossover != 3 {
		t.Errorf("standard crossover shown %q, engine %d", got, cs.Crossover)
	}
	if got := b.text(t, "#cross-m1"); got != fmt.Sprintf("b = %d", cm.Crossover) || cm.Crossover != 4 {
		t.Errorf("M1 crossover shown %q, engine %d", got, cm.Crossover)
	}
	b.screenshot(t, "communication-fit")

	// Use the fits: the fields get S1's and M1's message costs with the
	// example's statement costs, and the crossovers follow.
	b.run(t, chromedp.Click("#comm-use", chromedp.ByQuery))
	s1, _, _ := numl.MessageCoef(sets[0].Result.Model)
	m1, _, _ := numl.MessageCoef(sets[3].Result.Model)
	s1.Delta, s1.BetaMem = exStd.Delta, exStd.BetaMem
	m1.Delta, m1.BetaMem, m1.GammaMem = exM1.Delta, exM1.BetaMem, exM1.GammaMem
	b.waitFor(t, "the fitted coefficients", fmt.Sprintf(`document.querySelector("#comm-std").value === %q`, s1.String()))
	var m1Text string
	b.eval(t, `document.querySelector("#comm-m1").value`, &m1Text)
	if m1Text != m1.String() {
		t.Errorf("M1 field %q, want %q", m1Text, m1.String())
	}
	ps, _ := numl.ParseCoef("", s1.String())
	pm, _ := numl.ParseCoef("", m1.String())
	cs, _ = numl.Compare(conv, ps, 10)
	cm, _ = numl.Compare(conv, pm, 10)
	want := func(cv numl.Curve) string {
		if cv.Found {
			return fmt.Sprintf("b = %d", cv.Crossover)
		}
		return "none up to b = 10"
	}
	b.waitFor(t, "the crossover from the fits", fmt.Sprintf(`document.querySelector("#cross-std").textContent.trim() === %q && document.querySelector("#cross-m1").textContent.trim() === %q`, want(cs), want(cm)))
	if !strings.Contains(b.text(t, "#use-note"), "statement costs were kept") {
		t.Errorf("use note %q", b.text(t, "#use-note"))
	}
	b.screenshot(t, "communication-used")

	// Other training rows: single messages only.
	b.retype(t, "#comm-train", "m == 1")
	b.waitFor(t, "the refit", `document.querySelector("#fit-source").textContent.includes("for the test")`)
	cond, _ := fit.ParseCond("m == 1")
	again, _ := numl.FitSets(tbl, "time", cond, []string{numl.M1})
	b.waitFor(t, "M1 refitted", fmt.Sprintf(`document.querySelector("#fit-M1-D-test").textContent.trim() === %q`, shownFit(again[0].Result)["D-test"]))
	checkFits(t, b, tbl, "m == 1")
	if frag := fragment(t, b.location(t)); !strings.Contains(frag, "train=m+%3D%3D+1") && !strings.Contains(frag, "train=m") {
		t.Errorf("fragment %q lacks the training rows", frag)
	}
	// A bad condition is named under the field.
	b.retype(t, "#comm-train", "m ==")
	b.waitFor(t, "the condition message", `document.querySelector("#comm-train-err") && document.querySelector("#comm-train-err").textContent.includes("Training rows")`)

	// Import a file: per-message rows timed as 2 µs + 0.5 ns·n + 40 ns·u
	// plus a small wobble, all rows for training.
	var csv strings.Builder
	csv.WriteString("kind,n,u,time_us\n")
	for i, r := range [][2]int64{{4096, 64}, {4096, 1024}, {16384, 256}, {16384, 1024}, {65536, 1024}, {65536, 2048}, {1024, 16}, {1024, 256}} {
		us := 2 + 0.0005*float64(r[0]) + 0.04*float64(r[1]) + 0.1*float64(i%3-1)
		fmt.Fprintf(&csv, "%s,%d,%d,%g\n", map[bool]string{true: "rows", false: "columns"}[i%2 == 0], r[0], r[1], us)
	}
	file := filepath.Join(t.TempDir(), "mine.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run(t, chromedp.SetUploadFiles("#comm-file", []string{file}, chromedp.ByQuery))
	b.waitFor(t, "the imported file", `document.querySelector("#comm-data").value === "file"`)
	mine, _, err := dataset.Read(strings.NewReader(csv.String()), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "all rows in training", `document.querySelector("#fit-source").textContent.includes("8 for training, 0 for the test")`)
	if src := b.text(t, "#fit-source"); !strings.HasPrefix(src, "mine.csv. 8 rows") {
		t.Errorf("source line %q", src)
	}
	checkFits(t, b, mine, "")
	b.screenshot(t, "communication-import")
	b.noErrors(t, "communication fit")
}
