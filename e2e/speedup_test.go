package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// eq14Link is Chittor's eq. 14 fit: Table 6, the terms of eq. 9 with a
// constant, characterisation region N <= 2^9 && P <= 2^4, absolute least
// squares, and the speedup chart for N = 512.
const eq14Link = "/speedup#data=chittor-table6&terms=1,+N/P*log2(P)%5E2,+P*log2(P),+P,+N/P*log2(N/P)%5E2,+log2(P)*N/P*log2(N/P)%5E2" +
	"&region=N+%3C%3D+2%5E9+%26%26+P+%3C%3D+2%5E4&w=abs&n=512"

// freshOpen loads a URL as a new document (not a same-page fragment
// change), the way a pasted link opens.
func (b *browser) freshOpen(t testing.TB, url, sel string) {
	t.Helper()
	b.run(t, chromedp.Navigate("about:blank"))
	b.open(t, url, sel)
}

// retype focuses an input, selects its text and types over it key by key,
// as a user does. Unlike typeInto it queries the element in the page at the
// time of the call, not through chromedp's node cache, which can hold the
// prerendered input the app replaced on start.
func (b *browser) retype(t testing.TB, sel, text string) {
	t.Helper()
	var ok bool
	b.eval(t, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.focus(); e.select(); return true; })()`, sel), &ok)
	if !ok {
		t.Fatalf("no %s", sel)
	}
	if text == "" {
		b.run(t, chromedp.KeyEvent(kb.Delete))
		return
	}
	b.run(t, chromedp.KeyEvent(text))
}

// constant is the fitted coefficient of the term "1", as shown.
func constant(t testing.TB, b *browser) string {
	t.Helper()
	var s string
	b.eval(t, `(() => { const r = [...document.querySelectorAll("#coef tbody tr")].find(tr => tr.querySelector("th").textContent.trim() === "1"); return r ? r.querySelector("td").textContent.trim() : ""; })()`, &s)
	return s
}

// TestSpeedupEq14 builds Chittor's eq. 14 with the form: Table 6, eq. 14's
// terms, region N<=2^9 && P<=2^4, absolute weighting. The thesis prints
// the constant as 14773.
func TestSpeedupEq14(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/speedup", "#coef")
	b.choose(t, "#data", "chittor-table6")
	b.choose(t, "#term-set", "chittor-eq14-terms")
	b.retype(t, "#region", "N<=2^9 && P<=2^4")
	b.choose(t, "#weighting", "abs")
	b.waitFor(t, "the eq. 14 constant", `document.querySelector("#weighting-used").textContent.includes("absolute")`)
	if got := constant(t, b); !strings.HasPrefix(got, "14773") {
		t.Errorf("constant %q, eq. 14 prints 14773", got)
	}
	if got := b.text(t, "#rows-used"); !strings.Contains(got, "34 rows") || !strings.Contains(got, "other 51") {
		t.Errorf("rows used: %q, want 34 fitted and 51 validated", got)
	}
	var statRows int
	b.eval(t, `document.querySelectorAll("#stats tbody tr").length`, &statRows)
	if statRows < 7 {
		t.Errorf("statistics table has %d rows", statRows)
	}
	frag := fragment(t, b.location(t))
	for _, want := range []string{"data=chittor-table6", "w=abs", "region=N%3C%3D2%5E9+%26%26+P%3C%3D2%5E4"} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment %q lacks %q", frag, want)
		}
	}
	// The speedup chart: predicted, measured, Multi's estimate, Amdahl.
	b.waitFor(t, "the speedup chart", `document.querySelector("#speedup-chart svg")`)
	var cols string
	b.eval(t, `[...document.querySelectorAll("#speedup-table thead th")].map(th => th.textContent).join("|")`, &cols)
	for _, want := range []string{"S measured", "Multi (Table 5)", "Amdahl", "Gustafson", "Sun–Ni"} {
		if !strings.Contains(cols, want) {
			t.Errorf("speedup table columns %q lack %q", cols, want)
		}
	}
	b.screenshot(t, "speedup-eq14")
	b.noErrors(t, "speedup eq. 14")
}

// TestSpeedupImport imports a CSV file of times made from a known form,
// T = 100 + 5000·N/P + 20·P, fits those terms and finds the coefficients;
// then a file with a bad cell is held until the user agrees to its good
// rows, and what was loaded stays meanwhile.
func TestSpeedupImport(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	var good strings.Builder
	good.WriteString("n,procs,time_ms\n")
	for n := 1024; n <= 1<<16; n *= 4 {
		for p := 1; p <= 64; p *= 2 {
			fmt.Fprintf(&good, "%d,%d,%g\n", n, p, 100+5000*float64(n)/float64(p)+20*float64(p))
		}
	}
	goodFile := filepath.Join(dir, "times.csv")
	badFile := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(goodFile, []byte(good.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := "N,P,T\n8,1,4161\n8,2,fast\n16,1,10865\n16,2,5418\n"
	if err := os.WriteFile(badFile, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}

	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/speedup", "#coef")
	b.run(t, chromedp.SetUploadFiles("#speedup-file", []string{goodFile}, chromedp.ByQuery))
	b.waitFor(t, "the imported file", `document.querySelector("#data").value === "file"`)
	var cols []string
	b.eval(t, `["#y-col", "#n-col", "#p-col"].map(s => document.querySelector(s).value)`, &cols)
	if strings.Join(cols, ",") != "time,n,procs" {
		t.Errorf("columns mapped as %v, want time, n, procs", cols)
	}
	b.retype(t, "#terms", "1, N/P, P")
	b.retype(t, "#region", "N <= 2^14")
	b.choose(t, "#weighting", "rel")
	var typed string
	b.eval(t, `document.querySelector("#terms").value`, &typed)
	if typed != "1, N/P, P" {
		t.Errorf("the terms field holds %q after typing 1, N/P, P", typed)
	}
	b.waitFor(t, "the fit of the file", `document.querySelector("#model") && document.querySelector("#model").textContent.includes("N/P")`)
	var coefs []string
	b.eval(t, `[...document.querySelectorAll("#coef tbody td")].map(td => td.textContent.trim())`, &coefs)
	// Times are stored in seconds: 100 ms is 0.1 s, 5000 ms 5 s, 20 ms 0.02 s.
	want := []string{"0.1", "5", "0.02"}
	if len(coefs) != 3 {
		t.Fatalf("coefficients %v", coefs)
	}
	for i, w := range want {
		if coefs[i] != w {
			t.Errorf("coefficient %d = %s, want %s", i+1, coefs[i], w)
		}
	}
	if got := b.text(t, "#stats tbody tr:nth-child(7) td:nth-child(3)"); got != "0.00 %" {
		t.Errorf("max relative error on the prediction region %q, want 0.00 %%", got)
	}
	b.screenshot(t, "speedup-import")

	b.run(t, chromedp.SetUploadFiles("#speedup-file", []string{badFile}, chromedp.ByQuery))
	b.run(t, chromedp.WaitVisible("#import-report", chromedp.ByQuery))
	if got := b.text(t, "#import-report"); !strings.Contains(got, "line 3, column 3 (T)") {
		t.Errorf("import report %q does not name line 3, column 3", got)
	}
	if got := b.text(t, "#model"); !strings.Contains(got, "N/P") {
		t.Errorf("the loaded fit was lost while the bad file waits: %q", got)
	}
	b.run(t, chromedp.Click("#import-good", chromedp.ByQuery))
	b.waitFor(t, "the good rows", `document.querySelector("#notice") && document.querySelector("#notice").textContent.includes("3 rows")`)
	b.noErrors(t, "speedup import")
}

// TestSpeedupShareLink opens eq. 14's link, copies the link the page shows
// and opens it in a fresh browser: the same numbers. Hostile links show a
// message and run nothing.
func TestSpeedupShareLink(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	a := newBrowser(t)
	a.open(t, srv.URL+eq14Link, "#coef")
	if got := constant(t, a); !strings.HasPrefix(got, "14773") {
		t.Errorf("constant %q from the link, want 14773", got)
	}
	// Chittor's thesis, section 5.3: the fitted model's speedup for N = 512 "will
	// improve only for P up to about 32 processors"; the measured times of
	// Table 6 are least at P = 64.
	var roll, rollMeasured string
	a.eval(t, `document.querySelector("#rolloff").dataset.p`, &roll)
	a.eval(t, `document.querySelector("#rolloff-measured").dataset.p`, &rollMeasured)
	if roll != "32" || rollMeasured != "64" {
		t.Errorf("roll-off for N = 512 at P = %s predicted, %s measured; want 32 and 64", roll, rollMeasured)
	}
	var shared, coefA, statsA string
	a.eval(t, `document.querySelector("#speedup-link").value`, &shared)
	coefA, statsA = a.text(t, "#coef"), a.text(t, "#stats")

	b := newBrowser(t)
	b.open(t, shared, "#coef")
	if got := b.text(t, "#coef"); got != coefA {
		t.Errorf("shared link coefficients\n%s\nwant\n%s", got, coefA)
	}
	if got := b.text(t, "#stats"); got != statsA {
		t.Errorf("shared link statistics differ")
	}

	for _, l := range []string{
		`/speedup#data=<img src=x onerror="window.pwned=1">&terms=<script>window.pwned=1</script>`,
		`/speedup#terms=1,+N/P*log2(P&region=N<<2&w=sideways&n=-1`,
		`/speedup#` + strings.Repeat("terms=N&", 900),
		`/speedup#%25zz&&&==&y=%00`,
	} {
		b.freshOpen(t, srv.URL+l, "#link-problems")
		var pwned bool
		b.eval(t, `!!window.pwned || document.querySelectorAll("main img[src=x], main script").length > 0`, &pwned)
		if pwned {
			t.Fatalf("%.50s: markup from the link reached the page", l)
		}
	}
	b.run(t, chromedp.WaitVisible("#link-problems", chromedp.ByQuery))
	b.freshOpen(t, srv.URL+`/speedup#terms=1,+N/P*log2(P&region=N<<2`, "#terms-err")
	if got := b.text(t, "#terms-err"); !strings.Contains(got, "term 2") {
		t.Errorf("terms message %q does not point at term 2", got)
	}
	if got := b.text(t, "#region-err"); !strings.Contains(got, "col") {
		t.Errorf("region message %q does not give the position", got)
	}
	b.screenshot(t, "speedup-bad-link")
	a.noErrors(t, "speedup link")
	b.noErrors(t, "speedup shared link")
}

// TestSpeedupOffline visits the site once, stops the server and opens the
// eq. 14 link, never visited before: the same fit, offline.
func TestSpeedupOffline(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "main h1")
	b.serviceWorkerReady(t)
	srv.stop()
	b.freshOpen(t, srv.URL+eq14Link, "#coef")
	if got := constant(t, b); !strings.HasPrefix(got, "14773") {
		t.Errorf("offline constant %q, want 14773", got)
	}
	b.run(t, chromedp.Click("#search-terms", chromedp.ByQuery))
	b.waitFor(t, "the term search", `document.querySelector("#candidates") || document.querySelector("#search-error")`)
	var n int
	b.eval(t, `document.querySelectorAll("#candidates tbody tr").length`, &n)
	if n == 0 {
		t.Errorf("the term search found nothing: %s", b.text(t, "#search"))
	}
	b.run(t, chromedp.Click("#use-candidate-0", chromedp.ByQuery))
	b.waitFor(t, "the chosen terms", `document.querySelector("#term-set").value === "custom"`)
	b.screenshot(t, "speedup-offline-search")
	b.noErrors(t, "speedup offline")
}

// TestSpeedupImportRegion imports measurements whose N all lie past the
// built-in region (N <= 2^9): the region is set to fit the new data, the
// notice says so, and the fit has training rows (point 5).
func TestSpeedupImportRegion(t *testing.T) {
	needBrowser(t)
	var data strings.Builder
	data.WriteString("N,P,T\n")
	for n := 1 << 12; n <= 1<<18; n *= 4 {
		for p := 1; p <= 16; p *= 2 {
			fmt.Fprintf(&data, "%d,%d,%g\n", n, p, 1e-6*float64(n)/float64(p)+1e-4*float64(p))
		}
	}
	file := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(file, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/speedup", "#coef")
	before := ""
	b.eval(t, `document.querySelector("#region").value`, &before)
	b.run(t, chromedp.SetUploadFiles("#speedup-file", []string{file}, chromedp.ByQuery))
	b.waitFor(t, "the imported file", `document.querySelector("#data").value === "file"`)
	var region string
	b.eval(t, `document.querySelector("#region").value`, &region)
	if region == before {
		t.Errorf("the region stayed %q, which selects none of the imported rows", region)
	}
	if n := b.text(t, "#notice"); !strings.Contains(n, "region") {
		t.Errorf("the notice %q does not say the region changed", n)
	}
	b.waitFor(t, "a fit with training rows", `document.querySelector("#coef tbody td") && !document.querySelector("#region-err")`)
	b.noErrors(t, "speedup import region")
}
