package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func seconds(t testing.TB, b *browser) string {
	t.Helper()
	var s string
	b.eval(t, `document.querySelector("#total").dataset.seconds`, &s)
	return s
}

// waitChange waits until the predicted time differs from before.
func waitChange(t testing.TB, b *browser, before string) string {
	t.Helper()
	b.waitFor(t, "the prediction to change", `document.querySelector("#total").dataset.seconds !== "`+before+`"`)
	return seconds(t, b)
}

// TestDefaultIsThePapersQuicksort checks the landing page against the
// printed prediction of the MBRAM paper's Fig. 5: quicksort of 8Mi integers on the
// 1.7 GHz Pentium 4 takes 1.51 s.
func TestDefaultIsThePapersQuicksort(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	if got := b.text(t, "#total"); !strings.HasPrefix(got, "1.51") {
		t.Errorf("default prediction %q, want the MBRAM paper's 1.51 s", got)
	}
	frag := fragment(t, b.location(t))
	for _, want := range []string{"machine=p4-1.7-pc133", "kernel=quicksort", "n=8Mi"} {
		if !strings.Contains(frag, want) {
			t.Errorf("URL fragment %q lacks %q", frag, want)
		}
	}
	var rows int
	b.eval(t, `document.querySelectorAll("#terms tbody tr").length`, &rows)
	if rows < 2 {
		t.Errorf("breakdown has %d terms, want the data movement and the mispredictions", rows)
	}
	b.noErrors(t, "default")
}

func fragment(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.EscapedFragment()
}

// TestInputsChangeResults edits every kind of input and checks the result,
// the URL and the field messages.
func TestInputsChangeResults(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	s0 := seconds(t, b)

	b.typeInto(t, "#n", "16Mi")
	s1 := waitChange(t, b, s0)
	// The address bar follows once the typing rests.
	b.waitFor(t, "n=16Mi in the URL", `location.hash.includes("n=16Mi")`)

	b.choose(t, "#machine", "p4-2.66-ddr266")
	s2 := waitChange(t, b, s1)

	b.choose(t, "#kernel", "radix")
	s3 := waitChange(t, b, s2)
	b.run(t, chromedp.WaitVisible("#b", chromedp.ByQuery))
	b.typeInto(t, "#b", "256")
	waitChange(t, b, s3)
	// The result may change at each key typed; it is b = 256's once the
	// link says so (the link is written when the typing rests).
	b.waitFor(t, "b=256 in the URL", `location.hash.includes("b=256")`)
	s4 := seconds(t, b)

	// A bad value: marked, explained, the last good result kept, the text kept.
	b.typeInto(t, "#n", "lots")
	b.run(t, chromedp.WaitVisible("#n-err", chromedp.ByQuery))
	if msg := b.text(t, "#n-err"); !strings.Contains(msg, "number") {
		t.Errorf("message for n=lots: %q", msg)
	}
	var invalid, kept string
	b.eval(t, `document.querySelector("#n").getAttribute("aria-invalid")`, &invalid)
	b.eval(t, `document.querySelector("#n").value`, &kept)
	if invalid != "true" || kept != "lots" {
		t.Errorf("bad n: aria-invalid=%q, value %q", invalid, kept)
	}
	if got := seconds(t, b); got != s4 {
		t.Errorf("a bad input changed the result from %s to %s", s4, got)
	}
	for _, bad := range []struct{ text, msg string }{
		{"0", "from 1"}, {"-4", "negative"}, {"1.5", "whole number"}, {"2^70", "from 1 to 2^50"},
	} {
		b.typeInto(t, "#n", bad.text)
		b.waitFor(t, "a message for n="+bad.text, `(document.querySelector("#n-err")||{}).textContent?.includes("`+bad.msg+`")`)
	}

	// Matrix product: n becomes a dimension with its own default.
	b.typeInto(t, "#n", "8Mi")
	b.choose(t, "#kernel", "matmul")
	b.waitFor(t, "matmul's default n", `document.querySelector("#n").value === "500"`)
	if r := b.text(t, "#regime"); r == "" {
		t.Error("matmul shows no regime")
	}

	// A sort opens compared with the other six (the MBRAM paper's Fig. 5), and the
	// link leaves that default out; a change of the comparison goes into it.
	b.choose(t, "#kernel", "quicksort")
	b.waitFor(t, "the other sorts compared", `document.querySelector("#cmp-mergesort")?.checked && document.querySelector("#cmp-radix-count")?.checked && !location.hash.includes("cmp=")`)
	b.run(t, chromedp.Click("#cmp-perm", chromedp.ByQuery))
	b.waitFor(t, "cmp in the URL", `location.hash.includes("cmp=mergesort,heapsort,bucket,bucket-count,radix,radix-count,perm")`)
	b.noErrors(t, "inputs")
}

// TestShareLinkRoundTrip opens a link with an inline machine in one
// browser, copies the link the page shows, and opens that in a fresh
// browser with empty storage: same numbers.
func TestShareLinkRoundTrip(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	link := srv.URL + "/#machine=custom&name=Lab+box&beta1=12.8GB/s&beta2=1.1GB/s&mu1=2&cache=32MiB&line=64B&mispredict=5.2ns&kernel=bucket-count&n=2^27&w=8&b=256&from=1Mi&to=16Gi"
	a := newBrowser(t)
	a.open(t, link, "#total")
	want := seconds(t, a)
	var shared string
	a.eval(t, `document.querySelector("#share-link").value`, &shared)
	if !strings.Contains(shared, "name=Lab+box") || !strings.Contains(shared, "beta1=12.8GB/s") {
		t.Errorf("share link %q does not carry the machine inline", shared)
	}
	var selected string
	a.eval(t, `document.querySelector("#machine").selectedOptions[0].textContent`, &selected)
	if !strings.Contains(selected, "Lab box") {
		t.Errorf("machine menu shows %q", selected)
	}

	b := newBrowser(t)
	b.open(t, shared, "#total")
	if got := seconds(t, b); got != want {
		t.Errorf("the shared link predicts %s, the original %s", got, want)
	}
	// Saving the link's machine keeps it, and the link still matches it.
	b.run(t, chromedp.Click("#save-link-machine", chromedp.ByQuery))
	b.waitFor(t, "saved", `document.querySelector("#notice")?.textContent.includes("Saved")`)
	b.open(t, shared, "#total")
	b.eval(t, `document.querySelector("#machine").value`, &selected)
	if !strings.HasPrefix(selected, "my-") {
		t.Errorf("after saving, the link's machine is %q, want the saved one", selected)
	}
	a.noErrors(t, "link")
	b.noErrors(t, "shared link")
}

// TestHostileLinks opens links with garbage and script in them: the page
// lists each problem, runs nothing, and uses the good keys.
func TestHostileLinks(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	links := []string{
		`/#kernel=<img src=x onerror="window.pwned=1">&n=abc&machine=p4-2.66-ddr266`,
		`/#name=<script>window.pwned=1</script>&beta1=5GB/s&beta2=1GB/s`,
		`/#` + strings.Repeat("n=1&", 2000),
		`/#%E0%A4%A&&&==&beta2=99TB/s`,
	}
	for _, l := range links {
		b.open(t, srv.URL+l, "#total")
		var pwned bool
		b.eval(t, `!!window.pwned`, &pwned)
		if pwned {
			t.Fatalf("%s: script from the link ran", l)
		}
		if !strings.Contains(l, "name=") {
			b.run(t, chromedp.WaitVisible("#link-problems", chromedp.ByQuery))
		}
		if s := seconds(t, b); s == "" || s == "NaN" {
			t.Errorf("%.40s: prediction %q", l, s)
		}
	}
	// The good key of the first link was used.
	b.open(t, srv.URL+links[0], "#total")
	var m string
	b.eval(t, `document.querySelector("#machine").value`, &m)
	if m != "p4-2.66-ddr266" {
		t.Errorf("machine %q, want the link's p4-2.66-ddr266", m)
	}
	b.noErrors(t, "hostile links")
}

// TestScenarioFileRoundTrip downloads a calculation as a file and opens it
// in a fresh browser: the way for scenarios too large for a link.
func TestScenarioFileRoundTrip(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	dir := t.TempDir()
	a := newBrowser(t)
	a.open(t, srv.URL+"/#machine=custom&name=File+box&beta1=7GB/s&beta2=2GB/s&mu1=4&cache=2MiB&line=64B&mispredict=4ns&kernel=mergesort&n=3e7", "#total")
	want := seconds(t, a)
	file := a.download(t, dir, "#download-scenario", `"mergesort"`)
	b := newBrowser(t)
	b.open(t, srv.URL+"/", "#total")
	before := seconds(t, b)
	b.run(t, setFile("#open-scenario", file))
	got := waitChange(t, b, before)
	if got != want {
		t.Errorf("the file predicts %s, the page that wrote it %s", got, want)
	}
	var kernel string
	b.eval(t, `document.querySelector("#kernel").value`, &kernel)
	if kernel != "mergesort" || !strings.Contains(b.location(t), "name=File+box") {
		t.Errorf("after opening the file: kernel %q, URL %s", kernel, b.location(t))
	}
	a.noErrors(t, "download")
	b.noErrors(t, "open file")
}
