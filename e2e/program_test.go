package e2e

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"memwall/engine/lang"
	"memwall/engine/sim"
	"memwall/presets"
)

// waitProgram waits until the Program page's job is in state.
func waitProgram(t testing.TB, b *browser, state string, limit time.Duration) {
	t.Helper()
	waitLong(t, b, "the program to be "+state, `document.querySelector("#outcome")?.dataset.state === "`+state+`"`, limit)
}

// runNative runs a program as the page would, natively.
func runNative(t testing.TB, src, machineID string, params map[string]int64) *lang.Result {
	t.Helper()
	p, err := lang.Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := presets.Machine(machineID)
	r, err := p.Run(context.Background(), m, sim.Majority, lang.Options{Params: params, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkProgramResult(t testing.TB, b *browser, want *lang.Result) {
	t.Helper()
	checkSeconds(t, b, "#prog-seconds", want.Seconds)
	c := want.Counts
	for key, n := range map[string]int64{"accesses": c.Accesses, "misses": c.Misses, "writebacks": c.Writebacks,
		"branches": c.Branches, "mispredictions": c.Mispredictions, "dependent": want.Dependent} {
		var got string
		b.eval(t, `document.querySelector('#prog-counts td[data-count="`+key+`"]')?.dataset.value ?? ""`, &got)
		if got != strconv.FormatInt(n, 10) {
			t.Errorf("count %s: page %q, engine %d", key, got, n)
		}
	}
}

// TestProgramRunProfile writes the Fig. 1 program in the editor, runs it
// and checks the result and the per-line profile against the engine.
func TestProgramRunProfile(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	b.screenshot(t, "program-idle")
	src := "param N = 2^16\nint X[N] = perm(), Y[N] = perm(), Z[N];\nfor (i = 0; i < N; i++) Z[i] = Y[X[i]];\n"
	b.typeInto(t, "#src-a", src)
	b.waitFor(t, "the program to compile", `document.querySelector("#compile-a")?.textContent.includes("Compiles")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitProgram(t, b, "done", 60*time.Second)
	want := runNative(t, src, "p4-2.66-ddr266", nil)
	checkProgramResult(t, b, want)
	// The loop's line makes every access: 3 per element.
	var acc string
	b.eval(t, `document.querySelector('#profile-table tr[data-line="3"] td[data-accesses]')?.dataset.accesses ?? ""`, &acc)
	if acc != strconv.Itoa(3<<16) {
		t.Errorf("profile of line 3: %q accesses, want %d", acc, 3<<16)
	}
	b.screenshot(t, "program-results")
	b.phone(t)
	b.screenshot(t, "program-results-phone")
	b.noErrors(t, "program run")
}

// TestProgramSyntaxError: a syntax error shows its line:column and the
// text stays as typed.
func TestProgramSyntaxError(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	src := "param N = 1000\nint A[N];\nfor (i = 0; i < N i++) A[i] = i;"
	b.typeInto(t, "#src-a", src)
	b.waitFor(t, "the error", `document.querySelector("#compile-a.error")`)
	msg := b.text(t, "#compile-a")
	if !strings.Contains(msg, "line 3:19: expected ';' after the loop's condition") {
		t.Errorf("error shown: %q", msg)
	}
	var kept string
	b.eval(t, `document.querySelector("#src-a").value`, &kept)
	if kept != src {
		t.Errorf("the editor holds %q, want the text typed", kept)
	}
	var disabled bool
	b.eval(t, `document.querySelector("#run").disabled`, &disabled)
	if !disabled {
		t.Error("Run is enabled on a program that does not compile")
	}
	var errLine string
	b.eval(t, `document.querySelector("#gutter-a").dataset.errorLine`, &errLine)
	if errLine != "3" {
		t.Errorf("gutter marks line %q, want 3", errLine)
	}
	b.screenshot(t, "program-error")
	b.noErrors(t, "program error")
}

// TestProgramCancel starts a long run and cancels it.
func TestProgramCancel(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	b.typeInto(t, "#f-p-N", "2^25")
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitLong(t, b, "the run to start", `document.querySelector("#outcome")?.dataset.state === "running"`, 10*time.Second)
	b.waitFor(t, "accesses to be simulated", `/[1-9]/.test(document.querySelector("#status-text").textContent)`)
	b.run(t, chromedp.Click("#cancel", chromedp.ByQuery))
	waitProgram(t, b, "cancelled", 10*time.Second)
	b.noErrors(t, "program cancel")
}

// TestProgramShareLinkOffline: the link the page writes, opened in a fresh
// browser, gives the same numbers; so does it with the server stopped.
func TestProgramShareLinkOffline(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	a := newBrowser(t)
	a.open(t, srv.URL+"/program", "#run")
	a.choose(t, "#example", "heapsort")
	a.typeInto(t, "#f-p-N", "2^12")
	a.choose(t, "#machine", "p2-0.35-pc66")
	// Both choices in the link: the machine's lands after the size's at
	// times, and a link copied between them names the default machine.
	a.waitFor(t, "the link", `(v => v.includes("p.N=4Ki") && v.includes("machine=p2-0.35-pc66"))(document.querySelector("#share-link").value)`)
	var link string
	a.eval(t, `document.querySelector("#share-link").value`, &link)
	if len(link) > 2048 {
		t.Errorf("link of %d bytes", len(link))
	}
	ex, _ := lang.LookupExample("heapsort")
	want := runNative(t, ex.Source, "p2-0.35-pc66", map[string]int64{"N": 1 << 12})

	b := newBrowser(t)
	b.open(t, link, "#run")
	waitProgram(t, b, "done", 30*time.Second) // small: runs by itself
	checkProgramResult(t, b, want)
	b.serviceWorkerReady(t)
	srv.stop()
	c := b // the same browser, now offline, with a link it never opened
	c.open(t, strings.Replace(link, "p.N=4Ki", "p.N=2Ki", 1), "#run")
	waitProgram(t, c, "done", 30*time.Second)
	checkProgramResult(t, c, runNative(t, ex.Source, "p2-0.35-pc66", map[string]int64{"N": 1 << 11}))
	c.noErrors(t, "program link offline")
}

// TestProgramAB compares the two permutation products on the 2.66 GHz
// Pentium 4 and checks the crossover against the engine's.
func TestProgramAB(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	b.run(t, chromedp.Click("#toggle-ab", chromedp.ByQuery))
	b.waitFor(t, "program B", `document.querySelector("#src-b")`)
	b.typeInto(t, "#f-from", "2^12")
	b.typeInto(t, "#f-to", "2^19")
	b.run(t, chromedp.Click("#compare", chromedp.ByQuery))
	waitProgram(t, b, "done", 90*time.Second)
	pa, _ := lang.LookupExample("perm")
	pb, _ := lang.LookupExample("perm-twopass")
	a, _ := lang.Compile(pa.Source)
	bb, _ := lang.Compile(pb.Source)
	m, _ := presets.Machine("p4-2.66-ddr266")
	want, err := lang.Compare(context.Background(), a, bb, "N", lang.Sizes(1<<12, 1<<19, 2), m, sim.Majority, lang.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Crossovers) != 1 {
		t.Fatalf("engine crossovers: %v", want.Crossovers)
	}
	got, err := strconv.ParseFloat(dataAttr(t, b, "#crossover", "n"), 64)
	if err != nil || math.Abs(got-math.Round(want.Crossovers[0])) > 0.5 {
		t.Errorf("crossover shown %v (%v), engine %v", got, err, want.Crossovers[0])
	}
	b.waitFor(t, "the A/B chart", `document.querySelector("#ab-chart svg, #ab-chart canvas")`)
	b.screenshot(t, "program-ab")
	b.noErrors(t, "program A/B")
}

// TestProgramPredict extrapolates quicksort to N = 2^22 in the browser and
// checks the prediction and its held-out error against the engine's, which
// is deterministic: the same ladder, the same runs, the same fit.
func TestProgramPredict(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	b.choose(t, "#example", "quicksort")
	b.choose(t, "#machine", "p4-1.7-pc133")
	b.typeInto(t, "#f-at", "2^22")
	b.run(t, chromedp.Click("#predict", chromedp.ByQuery))
	waitProgram(t, b, "done", 120*time.Second)
	ex, _ := lang.LookupExample("quicksort")
	p, _ := lang.Compile(ex.Source)
	m, _ := presets.Machine("p4-1.7-pc133")
	want, err := p.Predict(context.Background(), m, sim.Majority, lang.PredictOptions{Options: lang.Options{Seed: 1, Params: map[string]int64{}}, At: 1 << 22, Budget: 60_000_000})
	if err != nil {
		t.Fatal(err)
	}
	checkSeconds(t, b, "#pred-seconds", want.Seconds)
	if got := b.text(t, "#pred-model code"); got != want.Model() {
		t.Errorf("model shown %q, engine %q", got, want.Model())
	}
	b.waitFor(t, "the prediction chart", `document.querySelector("#pred-chart svg, #pred-chart canvas")`)
	b.screenshot(t, "program-predict")
	b.noErrors(t, "program predict")
}

// TestProgramHierarchy runs a program on a machine that gives its cache
// levels: the page shows the hierarchy simulator's time and each level's
// counts, the same as the engine's natively, beside the MBRAM
// simulator's.
func TestProgramHierarchy(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	const machineID = "ryzen7-7840u-spec"
	b.choose(t, "#machine", machineID)
	src := "param N = 2^16\nint X[N] = perm(), Y[N] = perm(), Z[N];\nfor (i = 0; i < N; i++) Z[i] = Y[X[i]];\n"
	b.typeInto(t, "#src-a", src)
	b.waitFor(t, "the program to compile", `document.querySelector("#compile-a")?.textContent.includes("Compiles")`)
	// With the miss curve: the run's results are the same, and the curve
	// at each level's size is that level's misses.
	b.run(t, chromedp.Click("#miss-curve", chromedp.ByQuery))
	b.waitFor(t, "curve=1 in the link", `location.hash.includes("curve=1")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitProgram(t, b, "done", 60*time.Second)
	want := runNative(t, src, machineID, nil)
	checkProgramResult(t, b, want)
	h := want.Hierarchy
	if h == nil {
		t.Fatalf("%s gives levels, but the engine gave no hierarchy result", machineID)
	}
	var rows int
	b.eval(t, `document.querySelectorAll('#prog-hier-levels tbody tr[data-level]').length`, &rows)
	if rows != len(h.Levels) {
		t.Errorf("the page shows %d levels, the engine %d", rows, len(h.Levels))
	}
	checkHierarchyRun(t, b, "prog-hier", *h)
	b.waitFor(t, "the miss curve chart", `document.querySelector("#prog-curve-chart svg")`)
	for _, l := range h.Levels {
		got := dataAttr(t, b, `#prog-curve-levels tr[data-level="`+l.Level.Name+`"] td[data-misses]`, "misses")
		if got != strconv.FormatInt(l.Counts.Misses, 10) {
			t.Errorf("%s: the miss curve gives %s misses, the level %d", l.Level.Name, got, l.Counts.Misses)
		}
	}
	b.screenshot(t, "program-hierarchy")
	b.phone(t)
	b.fitsPhone(t)
	b.screenshot(t, "program-hierarchy-phone")
	b.noErrors(t, "program on a machine with levels")
}
