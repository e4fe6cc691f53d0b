package e2e

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memwall/engine/estimate"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
	"memwall/presets"
)

// rigFile is a machine file that gives its cache levels, as calibration
// writes one, with quantities in units as a person writes them.
const rigFile = `{"name": "Rig", "beta1": "12 GB/s", "beta2": "1.5 GB/s", "mu1": 2, "cache": "32 MiB", "line": "64 B", "mispredict": "5 ns",
 "levels": [
  {"name": "L1", "size": "48 KiB", "line": "64 B", "beta1": "200 GB/s", "beta2": "100 GB/s", "latency": "1.2 ns"},
  {"name": "L2", "size": "2 MiB", "line": "64 B", "beta1": "80 GB/s", "beta2": "40 GB/s", "latency": "4 ns"},
  {"name": "L3", "size": "32 MiB", "line": "64 B", "beta1": "30 GB/s", "beta2": "10 GB/s", "latency": "15 ns"}],
 "mem_latency": "90 ns", "compute_rate": 4e9, "core_rates": {"quicksort": 3e9}, "l1_fill": "0.38 ns", "l1_exposed": 0.18,
 "stream_cost": [{"buckets": 8, "scatter": "17 ns"}, {"buckets": 48, "scatter": "45 ns"}, {"buckets": 64, "scatter": "22 ns"}]}`

// TestHierarchyMachine imports a machine with cache levels (and the first
// level's overlap with the core's work) on the Machines
// page, sees its levels there and in the editor (a bad level size named as
// levels[1].size), and uses it on the Kernels page: the main number is the
// hierarchy model's, equal to what engine/hier gives for the same machine
// and workload (the overlap included, and again from the page's link after
// a reload), an estimate; the MBRAM paper's total is beside it, equal to
// engine/mbram's, without "at least". Screenshots at desktop and phone size.
func TestHierarchyMachine(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	file := filepath.Join(t.TempDir(), "rig.json")
	if err := os.WriteFile(file, []byte(rigFile), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := machine.ParseJSON([]byte(rigFile))
	if err != nil {
		t.Fatal(err)
	}
	p := mbram.DefaultParams(8 << 20) // the Kernels page's default workload: quicksort of 8Mi keys
	wantHier, err := hier.Predict(m, "quicksort", p)
	if err != nil {
		t.Fatal(err)
	}
	wantMBRAM, err := mbram.Predict(m, "quicksort", p)
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")
	b.run(t, setFile("#import-file", file))
	b.waitFor(t, "the imported machine", `document.querySelector('#user-table tr[data-id="my-rig"]')`)
	// Its levels are shown under it.
	b.waitFor(t, "the levels table", `document.querySelectorAll("#levels-my-rig-table tbody tr").length === 3`)
	if lv := b.text(t, "#levels-my-rig"); !strings.Contains(lv, "48 KiB") || !strings.Contains(lv, "15 ns") || !strings.Contains(lv, "90 ns") || !strings.Contains(lv, "quicksort 3 Gop/s") || !strings.Contains(lv, "380 ps a line, κ = 0.18") ||
		!strings.Contains(lv, "fastest 17 ns a line into 8 buckets, slowest 45 ns into 48, from 8 to 64 buckets (3 points)") {
		t.Errorf("levels shown: %q", lv)
	}
	b.screenshot(t, "machines-levels")

	// The editor shows the levels as rows; a level smaller than the one
	// above it is named as the machine package names it.
	b.run(t, chromedp.Click(`#user-table tr[data-id="my-rig"] td.actions button`, chromedp.ByQuery), chromedp.WaitVisible("#level-2", chromedp.ByQuery))
	var cacheField bool
	b.eval(t, `!!document.querySelector("#m-cache")`, &cacheField)
	if cacheField {
		t.Error("with levels, the editor still has a C field of its own")
	}
	b.typeInto(t, "#m-l1-size", "16 KiB")
	b.waitFor(t, "the levels[1].size message", `(document.querySelector("#m-l1-size-err")||{}).textContent?.includes("levels[1].size: a level must be larger")`)
	b.typeInto(t, "#m-l1-size", "2 MiB")
	b.waitFor(t, "the message gone", `!document.querySelector("#m-l1-size-err")`)
	b.screenshot(t, "machines-levels-editor")
	b.run(t, chromedp.Click("#cancel-edit", chromedp.ByQuery))

	// Use: the Kernels page on the same machine, by the hierarchy model.
	b.run(t, chromedp.Click(`#user-table tr[data-id="my-rig"] a.button`, chromedp.ByQuery), appReady("#other-total"))
	var selected string
	b.eval(t, `document.querySelector("#machine").value`, &selected)
	if selected != "my-rig" {
		t.Errorf("Kernels page selected %q, want my-rig", selected)
	}
	checkHierarchyResult(t, b, units.FormatSeconds(wantHier.Seconds), units.FormatSeconds(wantMBRAM.Seconds))
	if loc := b.location(t); !strings.Contains(loc, "levels=L1:48KiB:64B:200GB/s") || !strings.Contains(loc, "l1_overlap=") {
		t.Errorf("the page's link %s does not carry the levels and the first level's overlap", loc)
	}
	b.screenshot(t, "kernels-hierarchy")

	b.phone(t)
	b.run(t, chromedp.Reload(), appReady("#other-total"))
	checkHierarchyResult(t, b, units.FormatSeconds(wantHier.Seconds), units.FormatSeconds(wantMBRAM.Seconds))
	b.waitFor(t, "tables marked", `[...document.querySelectorAll(".table-wrap")].every(w => w.scrollWidth <= w.clientWidth + 1 || w.classList.contains("scrolls"))`)
	b.screenshot(t, "kernels-hierarchy-phone")
	b.open(t, srv.URL+"/machines", `#user-table tr[data-id="my-rig"]`)
	b.screenshot(t, "machines-levels-phone")
	b.run(t, chromedp.Click(`#user-table tr[data-id="my-rig"] td.actions button`, chromedp.ByQuery), chromedp.WaitVisible("#level-2", chromedp.ByQuery))
	b.screenshot(t, "machines-levels-editor-phone")
	b.noErrors(t, "hierarchy machine")
}

// checkHierarchyResult reads the Kernels page's prediction: the hierarchy
// model's total as the main number, an estimate, and the paper's beside it.
func checkHierarchyResult(t *testing.T, b *browser, hierTotal, mbramTotal string) {
	t.Helper()
	if got := b.text(t, "#model-name"); got != "Hierarchy model" {
		t.Errorf("model name %q", got)
	}
	if got := b.text(t, "#total"); got != hierTotal {
		t.Errorf("main total %q; engine/hier gives %q", got, hierTotal)
	}
	if got := b.text(t, "#other-total"); got != mbramTotal {
		t.Errorf("MBRAM total beside it %q; engine/mbram gives %q", got, mbramTotal)
	}
	if got := b.text(t, "#other"); !strings.Contains(got, "MBRAM (the paper's model)") || !strings.Contains(got, "not on one with several cache levels") {
		t.Errorf("the MBRAM line reads %q", got)
	}
	if got := b.text(t, "#result"); strings.Contains(got, "at least") || !strings.Contains(got, "an estimate") {
		t.Errorf(`the prediction says "at least" or not "an estimate": %q`, got)
	}
	var terms []string
	b.eval(t, `[...document.querySelectorAll("#terms tbody th")].map(th => th.textContent)`, &terms)
	// The machine has quicksort's own core rate, which holds its branch
	// mispredictions (engine/hier): no separate branch term.
	if strings.Join(terms, "|") != "compute|L1 ← L2|L2 ← L3|L3 ← memory" {
		t.Errorf("breakdown terms %q", terms)
	}
}

// TestKernelsPageWalk: the matrix product on the Intel guest's preset,
// whose curve carries the page walk, shows the address translation term
// engine/hier computes, and the total with it.
func TestKernelsPageWalk(t *testing.T) {
	needBrowser(t)
	m, ok := presets.Machine("xeon-kvm-2vcpu")
	if !ok {
		t.Fatal("no xeon-kvm-2vcpu preset")
	}
	p := mbram.DefaultParams(2000)
	want, err := hier.Model(m, "matmul", p)
	if err != nil || !(want.Translation > 0) {
		t.Fatalf("engine: %+v, %v; want a translation term", want, err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine=xeon-kvm-2vcpu&kernel=matmul&n=2000", "#other-total")
	if got := b.text(t, "#total"); got != units.FormatSeconds(want.Seconds) {
		t.Errorf("total %q; engine/hier gives %q", got, units.FormatSeconds(want.Seconds))
	}
	// The preset carries its calibration's spreads: the prediction says
	// how far they move it, the share engine/estimate computes.
	r, err := estimate.Predict(m, "matmul", p, estimate.Auto)
	if err != nil || !(r.Uncertainty > 0) {
		t.Fatalf("estimate: %+v, %v; want an uncertainty", r.Prediction, err)
	}
	if got, w := b.text(t, "#uncertainty"), fmt.Sprintf("± %.1f%% from the calibration's spreads", 100*r.Uncertainty); !strings.Contains(got, w) {
		t.Errorf("the prediction's uncertainty reads %q, want %q", got, w)
	}
	wantTerm(t, termRows(t, b), "address translation", units.FormatSeconds(want.Translation), "cycle of 2000 pages")
	kernelsShots(t, b, "kernels-page-walk")
}

// TestKernelsNearFit: the permutation product whose arrays are a little
// larger than L2 (3·2^16 elements, 2.25 MiB beside a 2 MiB L2, on the
// 2026-11-28 Intel guest's preset) shows the warning engine/hier gives
// for it, with the estimate that has L2 holding the data.
func TestKernelsNearFit(t *testing.T) {
	needBrowser(t)
	m, ok := presets.Machine("xeon-m207-kvm-2vcpu")
	if !ok {
		t.Fatal("no xeon-m207-kvm-2vcpu preset")
	}
	p := mbram.DefaultParams(3 << 16)
	want, err := hier.Predict(m, "perm", p)
	if err != nil || len(want.Warnings) != 1 || !strings.Contains(want.Warnings[0], "times L2") {
		t.Fatalf("engine: %q, %v; want the near-fit warning", want.Warnings, err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine=xeon-m207-kvm-2vcpu&kernel=perm&n=196608", "#other-total")
	if got := b.text(t, "#total"); got != units.FormatSeconds(want.Seconds) {
		t.Errorf("total %q; engine/hier gives %q", got, units.FormatSeconds(want.Seconds))
	}
	if got := b.text(t, "#warnings"); !strings.Contains(got, want.Warnings[0]) {
		t.Errorf("the warnings read %q, want %q", got, want.Warnings[0])
	}
	kernelsShots(t, b, "kernels-near-fit")
}

// kernelsOnPreset opens the Kernels page on preset id's kernel at n and
// checks its total is engine/hier's: the preset, the engine's estimate,
// the browser and the server's address.
func kernelsOnPreset(t *testing.T, id, kernel string, n int64) (machine.Machine, hier.Estimate, *browser, string) {
	t.Helper()
	needBrowser(t)
	m, ok := presets.Machine(id)
	if !ok {
		t.Fatal("no " + id + " preset")
	}
	want, err := hier.Model(m, kernel, mbram.DefaultParams(n))
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine="+id+"&kernel="+kernel+"&n="+strconv.FormatInt(n, 10), "#other-total")
	if got := b.text(t, "#total"); got != units.FormatSeconds(want.Seconds) {
		t.Errorf("total %q; engine/hier gives %q", got, units.FormatSeconds(want.Seconds))
	}
	return m, want, b, srv.URL
}

// TestKernelsCrowdedColumn: the matrix product at n = 1024 on the AMD
// guest's preset, whose rows of 4 KiB put Q's column in one place of its
// pages: the page shows the total engine/hier computes and its crowded
// column term at the preset's crowded read (1.9 ns); at n = 1536, two
// places, the page shows the warning engine/hier gives.
func TestKernelsCrowdedColumn(t *testing.T) {
	const id = "epyc-zen4-kvm-2vcpu"
	m, want, b, url := kernelsOnPreset(t, id, "matmul", 1024)
	if !(want.Crowded > 0) {
		t.Fatalf("engine: %+v; want a crowded column term", want)
	}
	two, err := hier.Predict(m, "matmul", mbram.DefaultParams(1536))
	if err != nil || len(two.Warnings) == 0 {
		t.Fatalf("engine at n = 1536: %q, %v; want the places warning", two.Warnings, err)
	}
	wantTerm(t, termRows(t, b), "crowded column", units.FormatSeconds(want.Crowded), "crowded read (1.9 ns)")
	b.screenshot(t, "kernels-crowded-column")
	b.open(t, url+"/#machine="+id+"&kernel=matmul&n=1536", "#other-total")
	if got := b.text(t, "#warnings"); !strings.Contains(got, two.Warnings[len(two.Warnings)-1]) {
		t.Errorf("the warnings read %q, want %q", got, two.Warnings[len(two.Warnings)-1])
	}
	b.phone(t)
	b.run(t, chromedp.Reload(), appReady("#other-total"))
	b.screenshot(t, "kernels-crowded-column-phone")
	b.noErrors(t, "kernels crowded column")
}

// TestKernelsColumnCurve: the matrix product at n = 1536 on the Zen 5
// guest's preset, which has a column curve: rows of 6 KiB put Q's column
// in two places of its pages, and the page shows the total engine/hier
// computes and its column loop term at the curve's step there; the
// machine's levels list the curve by its place counts' medians.
func TestKernelsColumnCurve(t *testing.T) {
	_, want, b, _ := kernelsOnPreset(t, "epyc-zen5-kvm-2vcpu", "matmul", 1536)
	if !(want.Column > 0) || want.ColumnPlaces != 2 {
		t.Fatalf("engine: %+v; want a column loop term at two places", want)
	}
	wantTerm(t, termRows(t, b), "column loop", units.FormatSeconds(want.Column), "("+units.FormatSeconds(want.ColumnRead)+" a step")
	if got := b.text(t, "main"); !strings.Contains(got, "Column curve") || !strings.Contains(got, "a step by places") {
		t.Errorf("the machine's levels do not list its column curve")
	}
	b.screenshot(t, "kernels-column-curve")
	b.phone(t)
	b.run(t, chromedp.Reload(), appReady("#other-total"))
	b.screenshot(t, "kernels-column-curve-phone")
	b.noErrors(t, "kernels column curve")
}

// TestKernelsGatherCurve: the permutation product of 2^24 elements on the
// Zen 5 guest's preset, whose gather curve covers Y's 64 MiB: the page
// shows the total engine/hier computes and its "random reads by index"
// term at the curve's time a read there, and the machine's levels list
// the curve.
func TestKernelsGatherCurve(t *testing.T) {
	m, want, b, _ := kernelsOnPreset(t, "epyc-zen5-kvm-2vcpu", "perm", 1<<24)
	read, ok := m.GatherAt(64 << 20)
	if !(want.Gather > 0) || !ok || want.GatherRead != read {
		t.Fatalf("engine: %+v; want a gather term at the curve's %g a read", want, read)
	}
	wantTerm(t, termRows(t, b), "random reads by index", units.FormatSeconds(want.Gather), "("+units.FormatSeconds(want.GatherRead)+" a read")
	if got := b.text(t, "main"); !strings.Contains(got, "Gather curve") {
		t.Errorf("the machine's levels do not list its gather curve")
	}
	kernelsShots(t, b, "kernels-gather-curve")
}

// TestKernelsLatencyCurve: heapsort of 2^27 keys on the 2026-11-28 Intel
// guest's preset, whose memory latency curve reads 180 ns at the heap's
// 512 MiB where its one number (read at 2 GiB) is 345: the page shows
// the total engine/hier computes with the curve, the memory term says
// which latency it charged and at what span, and the machine's levels
// list the curve.
func TestKernelsLatencyCurve(t *testing.T) {
	m, want, b, _ := kernelsOnPreset(t, "xeon-m207-kvm-2vcpu", "heapsort", 1<<27)
	if len(m.MemLatencyCurve) < 2 || want.MemLatency != m.MemLatencyAt(512<<20) || !(want.MemLatency < m.MemLatency) {
		t.Fatalf("engine: latency %g; want the curve's at 512 MiB, %g, under mem_latency %g", want.MemLatency, m.MemLatencyAt(512<<20), m.MemLatency)
	}
	rows := termRows(t, b)
	memory := "memory's latency " + units.FormatSeconds(want.MemLatency) + " (its curve at the data's 512 MiB)"
	found := false
	for _, r := range rows {
		if strings.HasSuffix(r[0], "← memory") {
			found = strings.Contains(r[1], memory)
		}
	}
	if !found {
		t.Errorf("no memory term with %q among %q", memory, rows)
	}
	if got := b.text(t, "main"); !strings.Contains(got, "Memory latency by span") {
		t.Errorf("the machine's levels do not list its latency curve")
	}
	kernelsShots(t, b, "kernels-latency-curve")
}

// termRows are the rows of the page's Breakdown: each term's name and
// its row's whole text.
func termRows(t *testing.T, b *browser) [][]string {
	var rows [][]string
	b.eval(t, `[...document.querySelectorAll("#terms tbody tr")].map(tr => [tr.querySelector("th").textContent, tr.textContent])`, &rows)
	return rows
}

// wantTerm wants the Breakdown's term name among rows, its formula
// holding each of parts.
func wantTerm(t *testing.T, rows [][]string, name string, parts ...string) {
	t.Helper()
	i := slices.IndexFunc(rows, func(r []string) bool { return r[0] == name })
	if i < 0 {
		t.Errorf("no %s term among %q", name, rows)
		return
	}
	row := rows[i][1]
	for _, p := range parts {
		if !strings.Contains(row, p) {
			t.Errorf("the %s term reads %q; want %q in it", name, row, p)
		}
	}
}

// kernelsShots takes the Kernels page's screenshots under name, on the
// desktop and, reloaded, at a phone's size, and wants no errors in the
// page's console.
func kernelsShots(t *testing.T, b *browser, name string) {
	t.Helper()
	b.screenshot(t, name)
	b.phone(t)
	b.run(t, chromedp.Reload(), appReady("#other-total"))
	b.screenshot(t, name+"-phone")
	b.noErrors(t, strings.ReplaceAll(name, "-", " "))
}

// TestKernelsDependentReach: heapsort of 2^22 keys (a heap of 16 MiB) on
// the AMD guest's preset with a latency curve, given in the link, that
// reaches below its 12.26 MiB L3 and leaves the level halfway at some
// 6 MiB, as the guest's did while its neighbours filled the shared cache:
// the page shows the total engine/hier computes for that machine, the
// memory term says how much of L3 the walks find, and the machine's
// levels list the chase's reach.
func TestKernelsDependentReach(t *testing.T) {
	needBrowser(t)
	const id = "epyc-zen4-kvm-2vcpu"
	m, ok := presets.Machine(id)
	if !ok || len(m.Levels) == 0 {
		t.Fatal("no " + id + " preset with levels")
	}
	const curve = "2MiB:15ns,4MiB:20ns,8MiB:125ns,16MiB:135ns,32MiB:150ns,512MiB:180ns"
	m.MemLatencyCurve = []machine.LatencyPoint{{Span: 2 << 20, Latency: 15e-9}, {Span: 4 << 20, Latency: 20e-9}, {Span: 8 << 20, Latency: 125e-9},
		{Span: 16 << 20, Latency: 135e-9}, {Span: 32 << 20, Latency: 150e-9}, {Span: 512 << 20, Latency: 180e-9}}
	want, err := hier.Model(m, "heapsort", mbram.DefaultParams(1<<22))
	l3 := m.Levels[len(m.Levels)-1]
	if err != nil || len(want.Levels) == 0 || !(want.Levels[len(want.Levels)-1].Reach > 0) {
		t.Fatalf("engine: %+v, %v; want a reach below L3", want.Levels, err)
	}
	reach := want.Levels[len(want.Levels)-1].Reach
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine="+id+"&mem_latency_curve="+url.QueryEscape(curve)+"&kernel=heapsort&n=4194304", "#other-total")
	if got := b.text(t, "#total"); got != units.FormatSeconds(want.Seconds) {
		t.Errorf("total %q; engine/hier gives %q", got, units.FormatSeconds(want.Seconds))
	}
	wantTerm(t, termRows(t, b), "L3 ← memory", "the dependent reads find "+units.FormatSize(int64(reach))+" of L3's "+units.FormatSize(l3.Size))
	if got := b.text(t, "main"); !strings.Contains(got, "A chase's reach "+units.FormatSize(int64(reach))) {
		t.Errorf("the machine's levels do not list the chase's reach %s", units.FormatSize(int64(reach)))
	}
	kernelsShots(t, b, "kernels-dependent-reach")
}
