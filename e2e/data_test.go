package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memwall/engine/estimate"
	"memwall/engine/mbram"
	"memwall/presets"
)

// TestDataPage opens the built-in comparison (the MBRAM paper's measured times),
// then imports a file with an unknown kernel, an unknown machine and a bad
// cell: each is named by line and column, what was shown stays until the
// user agrees, and then the good rows are compared.
func TestDataPage(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "runs.csv")
	csv := "kernel,n,w,b,machine,time_ms\n" +
		"quicksort,8Mi,4,64,p4-1.7-pc133,2400\n" +
		"heapsort,8Mi,4,64,p4-1.7-pc133,24880\n" +
		"bogosort,8Mi,4,64,p4-1.7-pc133,1000\n" +
		"radix,8Mi,4,64,cray-1,770\n" +
		"mergesort,8Mi,4,64,p4-1.7-pc133,slow\n" +
		"perm,1Mi,4,64,p4-2.66-ddr266,159\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/data", "#errors")
	if got := b.text(t, "#errors caption"); got != "19 rows compared" {
		t.Errorf("built-in data: %q, want the MBRAM paper's 19 measured times", got)
	}
	if !strings.HasSuffix(b.location(t), "#data=mbram-paper") {
		t.Errorf("URL %s", b.location(t))
	}
	b.waitFor(t, "the chart", `document.querySelector("#compare-chart svg")`)
	b.screenshot(t, "data-mbram-paper")

	b.run(t, chromedp.SetUploadFiles("#data-file", []string{file}, chromedp.ByQuery))
	b.run(t, chromedp.WaitVisible("#import-report", chromedp.ByQuery))
	report := b.text(t, "#import-report")
	for _, want := range []string{
		"line 6, column 6 (time_ms)",
		"line 4, column 1 (kernel): unknown kernel \"bogosort\"",
		"line 5, column 5 (machine): unknown machine \"cray-1\"",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("import report lacks %q:\n%s", want, report)
		}
	}
	if got := b.text(t, "#errors caption"); got != "19 rows compared" {
		t.Errorf("while the file waits, the page shows %q; nothing loaded may be lost", got)
	}
	b.run(t, chromedp.Click("#import-good", chromedp.ByQuery))
	b.waitFor(t, "the good rows", `document.querySelector("#errors caption").textContent === "3 rows compared"`)
	var ratios []string
	b.eval(t, `[...document.querySelectorAll("#row-table tbody tr")].map(tr => tr.lastElementChild.previousElementSibling.textContent)`, &ratios)
	// The MBRAM paper's Fig. 5: quicksort measured 2.40 s against 1.51 s predicted.
	if len(ratios) != 3 || ratios[0] != "1.585" {
		t.Errorf("ratios %v, want quicksort's 2.4/1.514 = 1.585 first", ratios)
	}
	if got := b.text(t, "#skipped"); !strings.Contains(got, "bogosort") {
		t.Errorf("the left-out rows are not listed: %q", got)
	}
	b.choose(t, "#role-machine", "")
	b.waitFor(t, "the mapping message", `document.querySelector("#no-rows")`)
	b.choose(t, "#role-machine", "machine")
	b.waitFor(t, "the rows again", `document.querySelector("#errors caption") && document.querySelector("#errors caption").textContent === "3 rows compared"`)
	b.screenshot(t, "data-import")
	b.noErrors(t, "data")
}

// TestDataBothModels opens the development machine's `validate --sizes
// levels` table: the summary sets the hierarchy model beside the paper's,
// with the 30 of its 30 rows that validate counted within [0.8, 1.25]
// when it ran, and each row shows the hierarchy model's ratio (the first,
// the permutation product in L2: 24.157 µs measured, 29.601 µs predicted,
// 0.8161 in the file, 0.816 to three places) and how far the
// calibration's spreads move that prediction, as `memwall predict` has it.
func TestDataBothModels(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/data#data=validation-xeon-kvm-2vcpu", "#errors")
	if got := b.text(t, "#errors caption"); got != "30 rows compared" {
		t.Errorf("caption %q, want 30 rows", got)
	}
	if got := b.text(t, "#errors tbody tr:last-child"); !strings.Contains(got, "30 of 30") {
		t.Errorf("the band row says %q, want 30 of 30", got)
	}
	var cells []string
	b.eval(t, `[...document.querySelector("#row-table tbody tr").children].map(td => td.textContent)`, &cells)
	var heads []string
	b.eval(t, `[...document.querySelectorAll("#row-table thead th")].map(th => th.textContent)`, &heads)
	// The shipped table's first row: 24.157 µs measured over 29.601 µs predicted.
	if len(cells) != 13 || len(heads) != 13 {
		t.Fatalf("first row %q under %q, want 13 columns", cells, heads)
	}
	if heads[10] != "ratio" || cells[10] != "0.816" {
		t.Errorf("first row %q under %q, want the hierarchy ratio 0.816 eleventh", cells, heads)
	}
	m, _ := presets.Machine("xeon-kvm-2vcpu")
	p := mbram.DefaultParams(64 << 10)
	pr, err := estimate.By(estimate.Hier, m, "perm", p)
	if want := fmt.Sprintf("± %.1f%%", 100*pr.Uncertainty); err != nil || heads[11] != "±" || cells[11] != want {
		t.Errorf("first row's ± %q under %q, want %q (%v)", cells[11], heads[11], want, err)
	}
	// The machine column names the machine by its id, one line, with its
	// name on hover.
	var machine []string
	b.eval(t, `(c => [c.textContent, c.title])(document.querySelector("#row-table tbody tr").children[2])`, &machine)
	if len(machine) != 2 || machine[0] != "xeon-kvm-2vcpu" || !strings.HasPrefix(machine[1], "Intel Xeon, KVM guest") {
		t.Errorf("first row's machine cell %q, want the id xeon-kvm-2vcpu titled with the name", machine)
	}
	// The summary by size class, as validate printed it under the table
	// when it ran (docs/hierarchy.md, the twentieth run): ρ of the sorts
	// by the hierarchy model 1.000, 1.000 and 0.964, and the one pair it
	// orders against the measurement, beyond the cache.
	classes := classTable(t, b)
	if len(classes) != 10 || len(classes[0]) != 4 || classes[0][3] != "beyond" || classes[3][1] != "1.000" || classes[3][3] != "0.964" ||
		classes[7][3] != "radix-count < bucket-count" || classes[9][3] != "none" {
		t.Errorf("the class table reads %q", classes)
	}
	b.waitFor(t, "the chart", `document.querySelector("#compare-chart svg")`)
	b.screenshot(t, "data-both-models")
	b.phone(t)
	// The chart follows the window to phone width: nothing overflows.
	b.fitsPhone(t)
	b.screenshot(t, "data-both-models-phone")
	b.noErrors(t, "data, both models")
}

// TestDataImportReport imports what `memwall validate --json` wrote (the
// run behind the shipped xeon-m207 table, app/testdata, its machine the
// preset made from the same calibration): the page compares its 30 rows
// on that machine, 30 of them in the band, and sets the classes out as
// validate printed them (ρ of the sorts by the hierarchy model 1.000 in
// each class). A report on a machine the library lacks is refused with
// what to do, and the page keeps what it showed.
func TestDataImportReport(t *testing.T) {
	needBrowser(t)
	report, err := filepath.Abs("../app/testdata/validate-report.json")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "epyc-run.json")
	if err := os.WriteFile(other, []byte(strings.Replace(string(data), `"machine": "xeon-m207-kvm-2vcpu"`, `"machine": "my-epyc"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/data", "#errors")

	b.run(t, chromedp.SetUploadFiles("#data-file", []string{other}, chromedp.ByQuery))
	b.waitFor(t, "the refusal", `document.querySelector("#import-error")`)
	if got := b.text(t, "#import-error"); !strings.Contains(got, `machine "my-epyc", which is not in your library`) || !strings.Contains(got, "Machines page") {
		t.Errorf("refusal %q", got)
	}
	if got := b.text(t, "#errors caption"); got != "19 rows compared" {
		t.Errorf("after the refusal the page shows %q; want the paper's 19 rows still", got)
	}
	b.screenshot(t, "data-import-report-refused")

	b.run(t, chromedp.SetUploadFiles("#data-file", []string{report}, chromedp.ByQuery))
	b.waitFor(t, "the report's rows", `document.querySelector("#errors caption").textContent === "30 rows compared"`)
	if got := b.text(t, "#errors tbody tr:last-child"); !strings.Contains(got, "30 of 30") {
		t.Errorf("the band row says %q, want 30 of 30", got)
	}
	if got := b.text(t, "#data-source"); !strings.Contains(got, "validate-report.json: a memwall validate run on xeon-m207-kvm-2vcpu (levels sizes, 30 rows)") {
		t.Errorf("source %q", got)
	}
	classes := classTable(t, b)
	if len(classes) != 10 || len(classes[0]) != 4 || classes[0][1] != "L2" || classes[3][1] != "1.000" || classes[3][2] != "1.000" || classes[3][3] != "1.000" {
		t.Errorf("the class table reads %q", classes)
	}
	var selected string
	b.eval(t, `document.querySelector("#data").value`, &selected)
	if selected != "validate-report" {
		t.Errorf("data set chosen: %q", selected)
	}
	b.waitFor(t, "the chart", `document.querySelector("#compare-chart svg")`)
	b.screenshot(t, "data-import-report")
	b.phone(t)
	b.fitsPhone(t)
	b.screenshot(t, "data-import-report-phone")
	b.noErrors(t, "data, an imported validate report")
}

// classTable reads the Data page's table by size class, row by row, each
// row's cells as shown.
func classTable(t *testing.T, b *browser) [][]string {
	t.Helper()
	var rows [][]string
	b.eval(t, `[...document.querySelectorAll("#class-table tr")].map(tr => [...tr.children].map(c => c.textContent))`, &rows)
	return rows
}
