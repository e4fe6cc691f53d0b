package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/engine/trace"
	"memwall/engine/units"
	"memwall/presets"
)

// rateLink is perm at N = 2^22 on a machine with C = 256 KiB and B = 64
// (the 1.7 GHz Pentium 4's numbers with a 64-byte line): the workload
// docs/readings.md (Targets) sets the simulator's speed target on.
const rateLink = "/simulate#machine=custom&name=Rate+box&beta1=1.06GB/s&beta2=850MB/s&mu1=2&cache=256KiB&line=64B&mispredict=11.76ns&kernel=perm&n=2^22&w=4&seed=1&pred=majority"

var rateMachine = machine.Machine{Name: "Rate box", Beta1: 1.06e9, Beta2: 850e6, Mu1: 2, C: 256 << 10, B: 64, M: 11.76e-9}

// waitState waits until the results say state (done, cancelled, ...).
func waitState(t testing.TB, b *browser, state string, limit time.Duration) {
	t.Helper()
	waitLong(t, b, "the run to be "+state, `document.querySelector("#status")?.dataset.state === "`+state+`"`, limit)
}

// waitLong is waitFor with a deadline of the caller's.
func waitLong(t testing.TB, b *browser, what, js string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var ok bool
		b.eval(t, "!!("+js+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var status string
			b.eval(t, `document.querySelector("#status")?.textContent || ""`, &status)
			t.Fatalf("timed out after %v waiting for %s; status: %s; console: %q", limit, what, status, b.takeErrs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func dataAttr(t testing.TB, b *browser, sel, key string) string {
	t.Helper()
	var s string
	b.eval(t, fmt.Sprintf(`document.querySelector(%q)?.dataset[%q] ?? ""`, sel, key), &s)
	return s
}

func progressNow(t testing.TB, b *browser) int {
	t.Helper()
	var v string
	b.eval(t, `document.querySelector("#progress[role=progressbar]")?.getAttribute("aria-valuenow") ?? ""`, &v)
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("progress bar aria-valuenow %q", v)
	}
	return n
}

// checkCounts compares the counts table with the engine's counts.
func checkCounts(t testing.TB, b *browser, want sim.Counts) {
	t.Helper()
	for id, n := range map[string]int64{
		"accesses": want.Accesses, "hits": want.Hits, "misses": want.Misses, "writebacks": want.Writebacks,
		"seq": want.SeqTransfers, "rand": want.RandTransfers, "branches": want.Branches, "mispredictions": want.Mispredictions,
	} {
		if got := dataAttr(t, b, "#count-"+id, "value"); got != strconv.FormatInt(n, 10) {
			t.Errorf("count %s: page %q, engine %d", id, got, n)
		}
	}
}

// checkSeconds compares a shown time with the engine's: the same text, and
// the same number to rounding (WebAssembly and amd64 may round a last bit
// differently).
func checkSeconds(t testing.TB, b *browser, sel string, want float64) {
	t.Helper()
	if got := b.text(t, sel); got != units.FormatSeconds(want) {
		t.Errorf("%s shows %q, the engine gives %q", sel, got, units.FormatSeconds(want))
	}
	got, err := strconv.ParseFloat(dataAttr(t, b, sel, "seconds"), 64)
	if err != nil || math.Abs(got-want) > 1e-12*want {
		t.Errorf("%s: data-seconds %v (%v), engine %v", sel, got, err, want)
	}
}

// TestSimulateSmallRun runs perm at n = 2^16 from the form, by keyboard,
// and compares every number with the engine run natively.
func TestSimulateSmallRun(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate", "#run")
	b.screenshot(t, "simulate-idle")
	b.choose(t, "#kernel", "perm")
	b.typeInto(t, "#n", "2^16")
	b.waitFor(t, "n in the URL", `location.hash.includes("n=64Ki")`)
	// Enter in a field submits the form: Run.
	b.run(t, chromedp.SendKeys("#n", "\r", chromedp.ByQuery))
	waitState(t, b, "done", 30*time.Second)

	m, _ := presets.Machine("p4-1.7-pc133")
	p := mbram.Params{N: 1 << 16, W: 4, Buckets: 64}
	want, err := kernels.Simulate(context.Background(), m, sim.Majority, "perm", p, kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := mbram.Predict(m, "perm", p)
	if err != nil {
		t.Fatal(err)
	}
	checkSeconds(t, b, "#sim-total", want.Seconds)
	checkSeconds(t, b, "#closed-total", closed.Seconds)
	checkCounts(t, b, want.Counts)
	var rows int
	b.eval(t, `document.querySelectorAll("#closed-terms tbody tr code").length`, &rows)
	if rows != len(closed.Terms) {
		t.Errorf("closed-form breakdown shows %d formulas, want %d", rows, len(closed.Terms))
	}
	b.waitFor(t, "the cost chart", `document.querySelector("#cost-chart svg")`)
	if progressNow(t, b) != 100 {
		t.Errorf("a finished run shows %d %%", progressNow(t, b))
	}
	b.screenshot(t, "simulate-results")
	b.noErrors(t, "small run")
}

// TestSimulateShareLink opens a link with an inline machine, seed and
// predictor: it runs by itself (small), and the link the page shows gives
// the same numbers in a fresh browser.
func TestSimulateShareLink(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	link := srv.URL + "/simulate#machine=custom&name=Lab+box&beta1=12.8GB/s&beta2=1.1GB/s&mu1=2&cache=32KiB&line=64B&mispredict=5.2ns&kernel=radix-count&n=2^14&w=8&b=16&seed=7&pred=2bit"
	a := newBrowser(t)
	a.open(t, link, "#run")
	waitState(t, a, "done", 30*time.Second)
	want := dataAttr(t, a, "#sim-total", "seconds")
	var shared string
	a.eval(t, `document.querySelector("#share-link").value`, &shared)
	for _, k := range []string{"name=Lab+box", "kernel=radix-count", "n=16Ki", "w=8", "b=16", "seed=7", "pred=2bit"} {
		if !strings.Contains(shared, k) {
			t.Errorf("share link %q lacks %q", shared, k)
		}
	}
	m := machine.Machine{Name: "Lab box", Beta1: 12.8e9, Beta2: 1.1e9, Mu1: 2, C: 32 << 10, B: 64, M: 5.2e-9}
	res, err := kernels.Simulate(context.Background(), m, sim.TwoBit, "radix-count", mbram.Params{N: 1 << 14, W: 8, Buckets: 16}, kernels.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkSeconds(t, a, "#sim-total", res.Seconds)
	checkCounts(t, a, res.Counts)

	b := newBrowser(t)
	b.open(t, shared, "#run")
	waitState(t, b, "done", 30*time.Second)
	if got := dataAttr(t, b, "#sim-total", "seconds"); got != want {
		t.Errorf("the shared link simulates %s, the original %s", got, want)
	}
	var seed, pred, machineMenu string
	b.eval(t, `document.querySelector("#seed").value`, &seed)
	b.eval(t, `document.querySelector("#predictor").value`, &pred)
	b.eval(t, `document.querySelector("#machine").selectedOptions[0].textContent`, &machineMenu)
	if seed != "7" || pred != "2bit" || !strings.Contains(machineMenu, "Lab box") {
		t.Errorf("form from the link: seed %q, predictor %q, machine %q", seed, pred, machineMenu)
	}
	a.noErrors(t, "link")
	b.noErrors(t, "shared link")
}

// TestSimulateHostileLinks: garbage and script in a link give messages,
// never markup, and nothing runs.
func TestSimulateHostileLinks(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, l := range []string{
		`/simulate#kernel=<img src=x onerror="window.pwned=1">&seed=<script>window.pwned=1</script>&n=2^10`,
		`/simulate#pred=<b>bold</b>&n=2^40&w=3`,
		`/simulate#` + strings.Repeat("seed=1&", 1000),
		`/simulate#%E0%A4%A&&&==&seed=%zz`,
	} {
		b.open(t, srv.URL+l, "#run")
		b.run(t, chromedp.WaitVisible("#link-problems", chromedp.ByQuery))
		var pwned, markup bool
		b.eval(t, `!!window.pwned`, &pwned)
		b.eval(t, `!!document.querySelector("#link-problems img, #link-problems script, #link-problems b")`, &markup)
		if pwned || markup {
			t.Fatalf("%.50s: markup from the link was rendered (ran: %v)", l, pwned)
		}
	}
	b.noErrors(t, "hostile links")
}

// TestSimulateCancel starts quicksort of 2^23 keys, sees the progress bar
// advance while the page answers, cancels midway, and runs again.
func TestSimulateCancel(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate#machine=p4-1.7-pc133&kernel=quicksort&n=2^23&w=4&seed=1&pred=majority", "#run")
	if s := dataAttr(t, b, "#status", "state"); s != "" {
		t.Fatalf("a 2^23 run started by itself (%s)", s)
	}
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitLong(t, b, "progress", `+document.querySelector("#progress")?.getAttribute("aria-valuenow") >= 2`, 60*time.Second)
	first := progressNow(t, b)
	waitLong(t, b, "progress to advance", fmt.Sprintf(`+document.querySelector("#progress")?.getAttribute("aria-valuenow") > %d`, first), 60*time.Second)
	second := progressNow(t, b)
	b.screenshot(t, "simulate-running")
	var disabled bool
	b.eval(t, `document.querySelector("#run").disabled && !document.querySelector("#cancel").disabled`, &disabled)
	if !disabled {
		t.Error("while running, Run should be disabled and Cancel enabled")
	}
	b.run(t, chromedp.Click("#cancel", chromedp.ByQuery))
	waitState(t, b, "cancelled", 10*time.Second)
	t.Logf("progress %d %% then %d %%, cancelled at %d %%", first, second, progressNow(t, b))
	if pc := progressNow(t, b); pc >= 99 {
		t.Errorf("cancelled at %d %%, not midway", pc)
	}
	if n, _ := strconv.ParseInt(dataAttr(t, b, "#count-accesses", "value"), 10, 64); n <= 0 {
		t.Errorf("the cancelled run shows %d accesses", n)
	}
	if !strings.Contains(b.text(t, "#status-text"), "Cancelled") {
		t.Errorf("status after Cancel: %q", b.text(t, "#status-text"))
	}
	b.screenshot(t, "simulate-cancelled")

	// The page is usable: a small run gives results.
	b.typeInto(t, "#n", "2^16")
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 30*time.Second)
	m, _ := presets.Machine("p4-1.7-pc133")
	want, err := kernels.Simulate(context.Background(), m, sim.Majority, "quicksort", mbram.Params{N: 1 << 16, W: 4, Buckets: 64}, kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkSeconds(t, b, "#sim-total", want.Seconds)
	b.noErrors(t, "cancel")
}

// TestSimulateRate logs the browser's simulation rate for perm at N = 2^22
// with C = 256 KiB, B = 64, beside the native rate of the same call.
func TestSimulateRate(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+rateLink, "#run")
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 60*time.Second)
	rate, _ := strconv.ParseFloat(dataAttr(t, b, "#rate", "rate"), 64)
	wall := dataAttr(t, b, "#rate", "wall")
	idle := dataAttr(t, b, "#rate", "idle")

	start := time.Now()
	res, err := kernels.Simulate(context.Background(), rateMachine, sim.Majority, "perm", mbram.Params{N: 1 << 22, W: 4, Buckets: 64}, kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	native := float64(res.Counts.Accesses) / time.Since(start).Seconds()
	checkCounts(t, b, res.Counts)
	t.Logf("perm N=2^22, C=256KiB, B=64: browser %.1f M accesses/s (%s s of wall time, data generation included, %s s of it yielding to the browser); native %.1f M accesses/s; browser/native %.2f",
		rate/1e6, wall, idle, native/1e6, rate/native)
	if rate <= 0 {
		t.Errorf("no rate shown")
	}
	b.noErrors(t, "rate")
}

// TestSimulateLongQuicksort runs quicksort of 2^23 keys to the end in the
// browser. It takes a while, so it runs only with MEMWALL_E2E_LONG=1.
func TestSimulateLongQuicksort(t *testing.T) {
	if os.Getenv("MEMWALL_E2E_LONG") == "" {
		t.Skip("set MEMWALL_E2E_LONG=1 to run quicksort of 2^23 keys to the end")
	}
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate#machine=p4-1.7-pc133&kernel=quicksort&n=2^23&w=4&seed=1&pred=majority", "#run")
	start := time.Now()
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 15*time.Minute)
	t.Logf("quicksort 2^23 in the browser: %v from the click (page's wall time %s s, %s accesses/s); simulated %s, closed form %s",
		time.Since(start).Round(100*time.Millisecond), dataAttr(t, b, "#rate", "wall"), dataAttr(t, b, "#rate", "rate"),
		b.text(t, "#sim-total"), b.text(t, "#closed-total"))
	b.screenshot(t, "simulate-quicksort-8Mi")
	b.noErrors(t, "long quicksort")
}

// TestSimulateTrace replays a plain trace file: a bad line is reported with
// its number, and a good file gives the engine's counts.
func TestSimulateTrace(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	dir := t.TempDir()
	var good strings.Builder
	good.WriteString("# a scan and a scattered read\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&good, "R 0x%x 4\nW %d 8\n", 0x100000+4*i, 0x900000+(i*7919%20000)*64)
	}
	goodFile := filepath.Join(dir, "good.trace")
	badFile := filepath.Join(dir, "bad.trace")
	if err := os.WriteFile(goodFile, []byte(good.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badFile, []byte("R 0x10 4\nW 0x20 4\n\nX 0x30 4\nR 0x40 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate", "#run")
	b.run(t, chromedp.Click("#source-trace", chromedp.ByQuery), chromedp.WaitVisible("#trace-format", chromedp.ByQuery))
	b.run(t, setFile("#trace-file", badFile))
	b.waitFor(t, "the file chosen", `document.querySelector("#trace-picked").textContent.includes("bad.trace")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "failed", 20*time.Second)
	if msg := b.text(t, "#run-error"); !strings.Contains(msg, "line 4") {
		t.Errorf("bad trace: message %q, want one naming line 4", msg)
	}

	b.run(t, setFile("#trace-file", goodFile))
	b.waitFor(t, "the file chosen", `document.querySelector("#trace-picked").textContent.includes("good.trace")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 30*time.Second)
	m, _ := presets.Machine("p4-1.7-pc133")
	s, err := sim.New(sim.ConfigFor(m, sim.Majority))
	if err != nil {
		t.Fatal(err)
	}
	st, err := trace.Replay(context.Background(), s, nil, trace.NewReader(strings.NewReader(good.String()), trace.Plain, 0), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, b, s.Result().Counts)
	checkSeconds(t, b, "#sim-total", s.Result().Seconds)
	if got := dataAttr(t, b, "#count-records", "value"); got != strconv.FormatInt(st.Records, 10) {
		t.Errorf("records: page %s, engine %d", got, st.Records)
	}
	b.screenshot(t, "simulate-trace")
	b.noErrors(t, "trace")
}

// TestSimulateLackeyDetected replays a Valgrind Lackey trace with the
// format left as it opens: the format is detected (no failure on the
// ==pid== banner), the counts are the engine's Lackey replay, the cost
// chart has many points, and nothing about branches or data generation is
// shown for a trace (point 6).
func TestSimulateLackeyDetected(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	var lackey strings.Builder
	lackey.WriteString("==4242== Lackey, an example Valgrind tool\n==4242== Command: ./scan\n==4242==\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&lackey, "I  %08x,3\n L %08x,8\n S %08x,4\n", 0x400000+i, 0x100000+8*i, 0x900000+(i*7919%20000)*64)
	}
	file := filepath.Join(t.TempDir(), "scan.lackey")
	if err := os.WriteFile(file, []byte(lackey.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate", "#run")
	b.run(t, chromedp.Click("#source-trace", chromedp.ByQuery), chromedp.WaitVisible("#trace-format", chromedp.ByQuery))
	var predictor bool
	b.eval(t, `!!document.querySelector("#predictor")`, &predictor)
	if predictor {
		t.Error("a trace run offers a branch predictor")
	}
	b.run(t, setFile("#trace-file", file))
	b.waitFor(t, "the file chosen", `document.querySelector("#trace-picked").textContent.includes("scan.lackey")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 30*time.Second)
	m, _ := presets.Machine("p4-1.7-pc133")
	s, err := sim.New(sim.ConfigFor(m, sim.Majority))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trace.Replay(context.Background(), s, nil, trace.NewReader(strings.NewReader(lackey.String()), trace.Lackey, 0), 0, nil); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, b, s.Result().Counts)
	b.waitFor(t, "the cost chart", `document.querySelector("#cost-chart svg")`)
	var points int
	b.eval(t, `Math.min(...echarts.getInstanceByDom(document.getElementById("cost-chart")).getOption().series.map(s => s.data.length))`, &points)
	if points < 20 {
		t.Errorf("the cost chart of a 60000-line trace has %d points per series", points)
	}
	if rate := b.text(t, "#rate"); strings.Contains(rate, "data generation") {
		t.Errorf("a trace run says %q", rate)
	}
	b.noErrors(t, "lackey")
}

// TestSimulateHierarchy runs heapsort on a machine that gives its cache
// levels: beside the MBRAM simulator's numbers the page shows the
// hierarchy simulator's time and each level's, the same as the engine's
// natively with the kernel's accesses passed on to it.
func TestSimulateHierarchy(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	const machineID = "ryzen7-7840u-spec"
	b.open(t, srv.URL+"/simulate#machine="+machineID+"&kernel=heapsort&n=2^15", "#run")
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 60*time.Second)
	m, _ := presets.Machine(machineID)
	p := mbram.Params{N: 1 << 15, W: 4, Buckets: 64}
	mb, want, err := hier.SimulateKernel(context.Background(), m, sim.Majority, "heapsort", p, kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkSeconds(t, b, "#sim-total", mb.Seconds)
	checkHierarchyRun(t, b, "sim-hier", want)
	b.screenshot(t, "simulate-hierarchy")
	b.noErrors(t, "simulate on a machine with levels")
}

// TestSimulateTraceHierarchy replays a trace file on a machine that gives
// its cache levels: the page shows the hierarchy simulator's time and
// each level's, the engine's natively with the same trace teed to it, and
// the note that a trace's time is its traffic alone.
func TestSimulateTraceHierarchy(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	const machineID = "ryzen7-7840u-spec"
	var text strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&text, "R 0x%x 8\nW 0x%x 8\n", 0x100000+8*i, 0x4000000+(i*7919%30000)*64)
	}
	file := filepath.Join(t.TempDir(), "scatter.trace")
	if err := os.WriteFile(file, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate#machine="+machineID, "#run")
	b.run(t, chromedp.Click("#source-trace", chromedp.ByQuery), chromedp.WaitVisible("#trace-format", chromedp.ByQuery))
	b.run(t, setFile("#trace-file", file))
	b.waitFor(t, "the file chosen", `document.querySelector("#trace-picked").textContent.includes("scatter.trace")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 30*time.Second)

	m, _ := presets.Machine(machineID)
	s, err := sim.New(sim.ConfigFor(m, sim.Majority))
	if err != nil {
		t.Fatal(err)
	}
	h, err := hier.NewForLevels(m)
	if err != nil || h == nil {
		t.Fatalf("hierarchy simulator of %s: %v", machineID, err)
	}
	if _, err := trace.Replay(context.Background(), s, h, trace.NewReader(strings.NewReader(text.String()), trace.Plain, 0), 0, nil); err != nil {
		t.Fatal(err)
	}
	want := h.TraceResult()
	checkSeconds(t, b, "#sim-total", s.Result().Seconds)
	checkHierarchyRun(t, b, "sim-hier", want)
	if note := b.text(t, "#sim-hier"); !strings.Contains(note, "a trace records no operations and no branches") {
		t.Errorf("the hierarchy section does not say what a trace leaves out: %q", note)
	}
	b.screenshot(t, "simulate-trace-hierarchy")
	b.noErrors(t, "trace on a machine with levels")
}

// TestSimulateMissCurve asks for the miss curve: the page draws it and
// gives the misses at each of the machine's cache sizes, the engine's
// natively (the same kernel and seed through a simulator with curves), and
// the same as the hierarchy table's misses of each level.
func TestSimulateMissCurve(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	const machineID = "ryzen7-7840u-spec"
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate#machine="+machineID+"&kernel=quicksort&n=2^17", "#run")
	b.run(t, chromedp.Click("#miss-curve", chromedp.ByQuery))
	// The box goes into the link.
	b.waitFor(t, "curve=1 in the link", `location.hash.includes("curve=1")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitState(t, b, "done", 60*time.Second)
	b.waitFor(t, "the miss curve chart", `document.querySelector("#sim-curve-chart svg")`)

	m, _ := presets.Machine(machineID)
	s, err := sim.New(sim.ConfigFor(m, sim.Majority))
	if err != nil {
		t.Fatal(err)
	}
	h, err := hier.NewWithCurves(m)
	if err != nil {
		t.Fatal(err)
	}
	p := mbram.Params{N: 1 << 17, W: 4, Buckets: 64}
	if err := kernels.Run(context.Background(), s, "quicksort", p, kernels.Options{Seed: 1, Tracer: h}); err != nil {
		t.Fatal(err)
	}
	curve := h.Curves()[0]
	for _, l := range m.Levels {
		want := curve.Misses(l.Size / l.Line)
		got := dataAttr(t, b, `#sim-curve-levels tr[data-level="`+l.Name+`"] td[data-misses]`, "misses")
		if got != strconv.FormatInt(want, 10) {
			t.Errorf("%s: the page's curve gives %s misses, the engine's %d", l.Name, got, want)
		}
		// The level's misses, the second number of its row.
		var row string
		b.eval(t, `document.querySelectorAll('#sim-hier-levels tr[data-level="`+l.Name+`"] td')[1].textContent`, &row)
		if strings.ReplaceAll(row, " ", "") != strconv.FormatInt(want, 10) {
			t.Errorf("%s: the hierarchy table shows %q misses, the curve %d", l.Name, row, want)
		}
	}
	b.screenshot(t, "simulate-miss-curve")
	b.phone(t)
	// The chart follows the window to phone width: nothing overflows.
	b.fitsPhone(t)
	b.screenshot(t, "simulate-miss-curve-phone")
	b.noErrors(t, "miss curve")
}

// checkHierarchyRun holds a hierarchy simulator's section (hierarchyRun,
// element ids from id) to the engine's result: the total and each level's
// time.
func checkHierarchyRun(t *testing.T, b *browser, id string, want hier.Result) {
	t.Helper()
	checkSeconds(t, b, "#"+id+"-seconds", want.Seconds)
	for _, l := range want.Levels {
		got := dataAttr(t, b, "#"+id+`-levels tr[data-level="`+l.Level.Name+`"] td[data-seconds]`, "seconds")
		if v, err := strconv.ParseFloat(got, 64); err != nil || math.Abs(v-l.Time.Seconds) > 1e-9*l.Time.Seconds {
			t.Errorf("%s: page %q s, engine %g s", l.Level.Name, got, l.Time.Seconds)
		}
	}
}
