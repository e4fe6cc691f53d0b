package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memwall/engine/superstep"
	"memwall/engine/units"
)

// enginePrediction is the engine's interval for a sort, computed here so
// the page's numbers are checked against the engine itself.
func enginePrediction(t *testing.T, set superstep.Set, algo string, n int64, p int) superstep.Prediction {
	t.Helper()
	plan, err := superstep.NewPlan(algo, n, p, superstep.Params{})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := set.Predict(plan)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func publishedSet(t *testing.T, p int) superstep.Set {
	t.Helper()
	s, err := superstep.SGIPowerChallenge(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitText waits until an element's trimmed text is want.
func (b *browser) waitText(t *testing.T, what, sel, want string) {
	t.Helper()
	b.waitFor(t, what, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e && e.textContent.trim() === %q; })()`, sel, want))
}

// checkSteps compares every superstep row's t_g and t_b with the engine.
func checkSteps(t *testing.T, b *browser, pr superstep.Prediction) {
	t.Helper()
	for _, s := range pr.Steps {
		id := strconv.Itoa(s.Step.Number)
		if got := b.text(t, "#good-"+id); got != units.FormatSeconds(s.Interval.Good) {
			t.Errorf("superstep %s: t_g shown %q, engine %s", id, got, units.FormatSeconds(s.Interval.Good))
		}
		if got := b.text(t, "#bad-"+id); got != units.FormatSeconds(s.Interval.Bad) {
			t.Errorf("superstep %s: t_b shown %q, engine %s", id, got, units.FormatSeconds(s.Interval.Bad))
		}
		if got := b.text(t, "#m-"+id); got != strconv.FormatFloat(s.Step.Counts.M, 'f', 0, 64) {
			t.Errorf("superstep %s: M shown %q, engine %g", id, got, s.Step.Counts.M)
		}
	}
}

// TestSupersteps opens the Supersteps page, changes the sort, the
// coefficients and the measured times, checks the numbers shown against the
// engine, marks a bad field, and opens the share link in a fresh page.
func TestSupersteps(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/supersteps", "#total-good")

	// Defaults: radix sort of 10^6 integers on 8 processors, the superstep paper's
	// coefficients for p = 8.
	pr := enginePrediction(t, publishedSet(t, 8), "radix", 1000000, 8)
	b.waitText(t, "the default Good total", "#total-good", units.FormatSeconds(pr.Good))
	if got := b.text(t, "#total-bad"); got != units.FormatSeconds(pr.Bad) {
		t.Errorf("Bad total shown %q, engine %s", got, units.FormatSeconds(pr.Bad))
	}
	checkSteps(t, b, pr)
	b.waitFor(t, "the interval chart", `document.querySelector("#interval-chart svg")`)
	b.screenshot(t, "supersteps-default")

	// Column sort of 2^20 integers on 12 processors.
	b.choose(t, "#ss-algo", "column")
	b.retype(t, "#ss-n", "2^20")
	b.retype(t, "#ss-p", "12")
	pr = enginePrediction(t, publishedSet(t, 12), "column", 1<<20, 12)
	b.waitText(t, "the column-sort Good total", "#total-good", units.FormatSeconds(pr.Good))
	if got := b.text(t, "#total-bad"); got != units.FormatSeconds(pr.Bad) {
		t.Errorf("column sort: Bad total shown %q, engine %s", got, units.FormatSeconds(pr.Bad))
	}
	checkSteps(t, b, pr)

	// Measured times for every superstep: Loc and M/G per superstep and for
	// the sum.
	times := []string{"4ms", "3ms", "9ms", "3ms", "3ms"}
	steps := map[int]float64{}
	for i, s := range times {
		b.retype(t, fmt.Sprintf("#ss-tm%d", i+1), s)
		v, _ := units.ParseDuration(s)
		steps[i] = v
	}
	loc, err := pr.Locate(steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	l3 := loc.Steps[2]
	b.waitText(t, "Loc of superstep 3", "#loc-3", fmt.Sprintf("%.3f", l3.Loc))
	if got := b.text(t, "#mg-3"); got != fmt.Sprintf("%.3f", l3.MG) {
		t.Errorf("M/G of superstep 3 shown %q, engine %.3f", got, l3.MG)
	}
	// The total waits for the last time typed: superstep 3's Loc can be
	// final before superstep 5's time has reached the page.
	b.waitText(t, "the total Loc", "#total-loc", fmt.Sprintf("%.3f", loc.Total.Loc))
	b.retype(t, "#ss-tm2", "fast")
	b.waitFor(t, "the measured-time message", `document.querySelector("#ss-tm2-err") && document.querySelector("#ss-tm2-err").textContent.includes("Measured time of superstep 2")`)
	b.retype(t, "#ss-tm2", "3ms")
	b.waitText(t, "Loc of superstep 2 again", "#loc-2", fmt.Sprintf("%.3f", loc.Steps[1].Loc))
	b.waitFor(t, "the measured points", `document.querySelectorAll("#interval-chart svg path").length > 10`)
	b.screenshot(t, "supersteps-column-measured")

	// A processor count the paper has no coefficients for is named under
	// its field, and the last results stay.
	b.retype(t, "#ss-p", "3")
	b.waitFor(t, "the p message", `document.querySelector("#ss-p-err") && document.querySelector("#ss-p-err").textContent.includes("Processors p")`)
	if got := b.text(t, "#total-good"); got != units.FormatSeconds(pr.Good) {
		t.Errorf("total after a bad p: %q, want the last good %s", got, units.FormatSeconds(pr.Good))
	}
	b.screenshot(t, "supersteps-bad-p")

	// Typed coefficients for p = 3, starting from the paper's and changing
	// the Bad function.
	b.choose(t, "#ss-coef", "typed")
	b.waitFor(t, "the typed fields", `document.querySelector("#ss-bad") && document.querySelector("#ss-bad").value.startsWith("L=")`)
	b.retype(t, "#ss-bad", "L=10000, g_hr=0.3, g_hw=0.6, g_M=0.2")
	typed := publishedSet(t, 8)
	typed.P, typed.Name = 3, "typed in"
	typed.Bad = superstep.Coefficients{L: 10000, Ghr: 0.3, Ghw: 0.6, GM: 0.2}
	pr = enginePrediction(t, typed, "column", 1<<20, 3)
	b.waitText(t, "the typed Bad total", "#total-bad", units.FormatSeconds(pr.Bad))
	if got := b.text(t, "#total-good"); got != units.FormatSeconds(pr.Good) {
		t.Errorf("typed: Good total shown %q, engine %s", got, units.FormatSeconds(pr.Good))
	}
	checkSteps(t, b, pr)
	b.retype(t, "#ss-bad", "L=10000, g_hr=0.3")
	b.waitFor(t, "the Bad message", `document.querySelector("#ss-bad-err") && document.querySelector("#ss-bad-err").textContent.includes("g_hw, g_M missing")`)
	b.retype(t, "#ss-bad", "L=10000, g_hr=0.3, g_hw=0.6, g_M=0.2")
	b.waitText(t, "the typed Bad total again", "#total-bad", units.FormatSeconds(pr.Bad))
	b.screenshot(t, "supersteps-typed")

	// The link reproduces the page.
	link := b.location(t)
	frag := fragment(t, link)
	for _, k := range []string{"algo=column", "n=2%5E20", "p=3", "coef=typed", "bad=L%3D10000,+g_hr%3D0.3", "tm=4ms,3ms,9ms,3ms,3ms"} {
		if !strings.Contains(frag, k) {
			t.Errorf("fragment %q lacks %s", frag, k)
		}
	}
	b.freshOpen(t, link, "#total-good")
	b.waitText(t, "the Bad total from the link", "#total-bad", units.FormatSeconds(pr.Bad))
	checkSteps(t, b, pr)
	loc, _ = pr.Locate(steps, nil)
	if got := b.text(t, "#loc-3"); got != fmt.Sprintf("%.3f", loc.Steps[2].Loc) {
		t.Errorf("Loc from the link %q, engine %.3f", got, loc.Steps[2].Loc)
	}
	b.waitFor(t, "the chart from the link", `document.querySelector("#interval-chart svg")`)
	b.screenshot(t, "supersteps-link")
	b.noErrors(t, "supersteps")

	// A link with garbage lists what it could not use.
	b.freshOpen(t, srv.URL+"/supersteps#n=%3Cb%3Ex%3C/b%3E&zz=1", "#link-problems")
	if got := b.text(t, "#link-problems"); !strings.Contains(got, "Elements n") || !strings.Contains(got, "unknown key") {
		t.Errorf("link problems: %q", got)
	}
	b.screenshot(t, "supersteps-garbage-link")
}

// TestSuperstepsCoefFile loads a coefficient file as memwall superstep-fit
// writes it (a machine fitted for p = 2 with C = 1000 words) and checks the
// interval against the engine with the same set; a file that is not one
// is refused with its name and the reason, leaving the numbers as they were.
func TestSuperstepsCoefFile(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/supersteps", "#total-good")

	r1 := superstep.Coefficients{L: 120, Ghrc: 0.0016, Ghrm: 0.0008, Ghwc: 0.0019, Ghwm: 0.0007, GM: 0.0002}
	set := superstep.Set{Name: "here.json", P: 2, CacheWords: 1000,
		GoodR0: superstep.Coefficients{L: 16, Ghrc: 0.0007, Ghwc: 0.001, GM: 0.0001}, GoodR1: &r1,
		Bad: superstep.Coefficients{L: 30, Ghr: 0.009, Ghw: 0.0104, GM: 0.0003}}
	dir := t.TempDir()
	file := filepath.Join(dir, "here.json")
	var buf bytes.Buffer
	if err := superstep.WriteSet(&buf, set); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run(t, chromedp.SetUploadFiles("#ss-coef-file", []string{file}, chromedp.ByQuery))
	b.waitFor(t, "the file loaded", `document.querySelector("#ss-coef-file-msg")`)
	pr := enginePrediction(t, set, "radix", 1000000, 2)
	b.waitText(t, "the Good total with the file's coefficients", "#total-good", units.FormatSeconds(pr.Good))
	if got := b.text(t, "#total-bad"); got != units.FormatSeconds(pr.Bad) {
		t.Errorf("Bad total shown %q, engine %s", got, units.FormatSeconds(pr.Bad))
	}
	checkSteps(t, b, pr)
	b.screenshot(t, "supersteps-coef-file")

	bad := filepath.Join(dir, "notes.json")
	os.WriteFile(bad, []byte(`{"p": 2, "good": {"L": "fast"}}`), 0o644)
	b.run(t, chromedp.SetUploadFiles("#ss-coef-file", []string{bad}, chromedp.ByQuery))
	b.waitFor(t, "the refusal", `document.querySelector("#ss-coef-file-err")`)
	if msg := b.text(t, "#ss-coef-file-err"); !strings.HasPrefix(msg, "notes.json: ") {
		t.Errorf("refusal %q", msg)
	}
	if got := b.text(t, "#total-good"); got != units.FormatSeconds(pr.Good) {
		t.Errorf("after a bad file the Good total is %q, was %s", got, units.FormatSeconds(pr.Good))
	}
	b.noErrors(t, "/supersteps")
}

// TestSuperstepsFitSuites fits the cost functions to a suites file on the
// page: Suites 1–3 for p = 2 timed exactly by known coefficients (Good:
// HrHwM-c, R0 and R1 apart at C = 2^19 words; Bad: HrHwM), as memwall
// superstep-suites writes them (each suite 30 sizes × 4 patterns, in both
// modes: 360 good and 360 bad). Least squares on exact times gives the
// coefficients back, so the interval shown must be the engine's with the
// generating set, and the table lists the fitted functions.
func TestSuperstepsFitSuites(t *testing.T) {
	needBrowser(t)
	const cw = 1 << 19
	r1 := superstep.Coefficients{L: 100, Ghrc: 0.002, Ghrm: 0.004, Ghwc: 0.003, Ghwm: 0.006, GM: 0.0005}
	set := superstep.Set{P: 2, CacheWords: cw, GoodR0: superstep.Coefficients{L: 50, Ghrc: 0.002, Ghwc: 0.003, GM: 0.0005}, GoodR1: &r1,
		Bad: superstep.Coefficients{L: 200, Ghr: 0.02, Ghw: 0.03, GM: 0.001}}
	var csv strings.Builder
	csv.WriteString("suite,bad,p,h_r,h_w,M,h_rc,h_rm,h_wc,h_wm,time_us\n")
	for suite := 1; suite <= 3; suite++ {
		exps, err := superstep.Suite(suite, 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exps {
			c, _ := e.Superstep.Counts()
			x := c.Features(cw)
			good, _ := set.Good(x.H)
			tg, _ := superstep.HrHwMc.Eval(good, x)
			tb, _ := superstep.HrHwM.Eval(set.Bad, x)
			for bad, tm := range []float64{tg, tb} {
				fmt.Fprintf(&csv, "%d,%d,2,%g,%g,%g,%g,%g,%g,%g,%.17g\n", suite, bad, x.Hr, x.Hw, x.M, x.Hrc, x.Hrm, x.Hwc, x.Hwm, tm)
			}
		}
	}
	file := filepath.Join(t.TempDir(), "suites.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/supersteps", "#total-good")
	b.run(t, chromedp.SetUploadFiles("#ss-suites-file", []string{file}, chromedp.ByQuery))
	b.waitFor(t, "the fit", `document.querySelector("#fit-table")`)
	if msg := b.text(t, "#ss-coef-file-msg"); !strings.HasPrefix(msg, "Fitted suites.csv: 360 good and 360 bad supersteps") {
		t.Errorf("message %q", msg)
	}
	pr := enginePrediction(t, set, "radix", 1000000, 2)
	b.waitText(t, "the Good total from the fit", "#total-good", units.FormatSeconds(pr.Good))
	if got := b.text(t, "#total-bad"); got != units.FormatSeconds(pr.Bad) {
		t.Errorf("Bad total shown %q, engine %s", got, units.FormatSeconds(pr.Bad))
	}
	checkSteps(t, b, pr)
	for _, id := range []string{"#fit-good-HrHwM-c-2-R0", "#fit-good-HrHwM-c-2-R1", "#fit-bad-HrHwM-2-all", "#fit-good-H-2-R0"} {
		if b.text(t, id) == "" {
			t.Errorf("no row %s in the fit table", id)
		}
	}
	b.screenshot(t, "supersteps-fit-suites")
	b.noErrors(t, "/supersteps")
}
