package e2e

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"memwall/engine/units"
)

// The tests here check the one way in: what a page shows, its share link
// given to the CLI with --link and its downloaded scenario file given with
// --scenario print the same numbers. Each page's numbers come from the
// browser (WebAssembly), the CLI's from the native build of the same engine.

// memwall runs the CLI built from this tree and returns its standard output.
func memwall(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command(memwallBin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("memwall %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// shareLink is the link a page shows in its share field.
func shareLink(t testing.TB, b *browser, sel string) string {
	t.Helper()
	var v string
	b.eval(t, `document.querySelector(`+strconv.Quote(sel)+`)?.value ?? ""`, &v)
	if !strings.Contains(v, "#") {
		t.Fatalf("%s holds no share link: %q", sel, v)
	}
	return v
}

// sameThroughCLI runs the command with the page's link and with its
// downloaded scenario file, and checks each output holds every wanted text.
func sameThroughCLI(t *testing.T, b *browser, linkSel, downloadSel, fileHas string, cmd []string, want ...string) {
	t.Helper()
	u := shareLink(t, b, linkSel)
	file := b.download(t, t.TempDir(), downloadSel, fileHas)
	for _, in := range [][]string{{"--link", u}, {"--scenario", file}} {
		out := memwall(t, append(append([]string{}, cmd...), in...)...)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("memwall %s %s: output lacks %q the page shows\n%s", strings.Join(cmd, " "), in[0], w, out)
			}
		}
	}
}

func TestKernelsLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine=p4-1.7-pc133&kernel=mergesort&n=2^20&w=8", "#total")
	total := b.text(t, "#total")
	sameThroughCLI(t, b, "#share-link", "#download-scenario", `"mergesort"`, []string{"predict"}, "predicted: "+total)
}

func TestSimulateLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/simulate#machine=p4-1.7-pc133&kernel=heapsort&n=2^14&seed=7&pred=2bit", "#share-link")
	waitLong(t, b, "the run to finish", `document.querySelector("#sim-total")?.dataset.seconds !== undefined`, 60*time.Second)
	sec, err := strconv.ParseFloat(dataAttr(t, b, "#sim-total", "seconds"), 64)
	if err != nil {
		t.Fatal(err)
	}
	sameThroughCLI(t, b, "#share-link", "#sim-download", `"heapsort"`, []string{"simulate"}, "simulated:   "+units.FormatSeconds(sec), "seed 7", "predictor 2bit")
}

func TestSpeedupLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/speedup#data=chittor-table6&w=abs&n=8192", "#coef")
	b.waitFor(t, "the roll-off", `document.querySelector("#rolloff")?.dataset.p !== undefined`)
	c := constant(t, b)
	p := dataAttr(t, b, "#rolloff", "p")
	sameThroughCLI(t, b, "#speedup-link", "#speedup-download", `"speedup"`, []string{"fit"}, c, "roll-off: P = "+p+" ")
}

func TestCommunicationLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/communication#kind=columns&W=4000&k=3&w=4&r=1000&L=64&o=21", "#u")
	u, cross := b.text(t, "#u"), b.text(t, "#cross-std")
	sameThroughCLI(t, b, "#comm-link", "#comm-download", `"communication"`, []string{"numl", "lines"}, "lines touched: u = "+u)
	sameThroughCLI(t, b, "#comm-link", "#comm-download", `"communication"`, []string{"numl", "conv"}, "crossover, standard model: "+cross)
}

func TestSuperstepsLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/supersteps#algo=sample&n=2^20&p=4&tm=4ms,3ms", "#total-good")
	good, bad := b.text(t, "#total-good"), b.text(t, "#total-bad")
	sameThroughCLI(t, b, "#ss-link", "#ss-download", `"supersteps"`, []string{"supersteps"}, good, bad)
}

func TestProgramLinkAndFileInCLI(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/program", "#run")
	src := "param N = 2^14\nint X[N] = perm(), Y[N] = perm(), Z[N];\nfor (i = 0; i < N; i++) Z[i] = Y[X[i]];\n"
	b.typeInto(t, "#src-a", src)
	b.waitFor(t, "the program to compile", `document.querySelector("#compile-a")?.textContent.includes("Compiles")`)
	b.run(t, chromedp.Click("#run", chromedp.ByQuery))
	waitProgram(t, b, "done", 60*time.Second)
	sec, err := strconv.ParseFloat(dataAttr(t, b, "#prog-seconds", "seconds"), 64)
	if err != nil {
		t.Fatal(err)
	}
	sameThroughCLI(t, b, "#share-link", "#download-scenario", `"source"`, []string{"run"}, "simulated: "+units.FormatSeconds(sec))
}
