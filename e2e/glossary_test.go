package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// visibleText is the text of an element if it is rendered (not hidden, not
// behind a hover), else "".
const visibleText = `((sel) => { const e = document.querySelector(sel); return e && e.checkVisibility() && e.getBoundingClientRect().height > 0 ? e.innerText : ""; })`

// TestNamesExplained checks that the papers' names are explained as
// visible text where they appear: Model Rule 8 beside the Kernels warning
// that cites it, the cost functions and R0/R1 on Supersteps, the program
// name and time unit of Table 6 on Speedup; and that a long machine name is
// shortened in the menu and shown whole under it.
func TestNamesExplained(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, c := range []struct {
		url, ready, sel string
		names           []string
	}{
		{"/#machine=p4-2.66-ddr266&kernel=bucket&n=1Mi&b=8Ki", "#warnings", "#warnings-glossary", []string{"Model Rule 8", "random memory access"}},
		{"/supersteps", "#ss-n", "#ss-glossary", []string{"HrHwM-c", "HrHwM", "R0", "R1", "HM", "cache"}},
		{"/speedup", "#coef", "#speedup-glossary", []string{"bmergesort_ngtp", "bitonic merge sort", "Multi simulation time units", "simulated ticks"}},
	} {
		b.freshOpen(t, srv.URL+c.url, c.ready)
		b.run(t, chromedp.ScrollIntoView(c.sel, chromedp.ByQuery))
		b.screenshot(t, "glossary-"+strings.TrimPrefix(c.sel, "#"))
		var text string
		b.eval(t, fmt.Sprintf("%s(%q)", visibleText, c.sel), &text)
		for _, n := range c.names {
			if !strings.Contains(text, n) {
				t.Errorf("%s: %s does not explain %q in visible text: %q", c.url, c.sel, n, text)
			}
		}
	}
	b.freshOpen(t, srv.URL+"/#machine=xeon-kvm-2vcpu&kernel=heapsort&n=1Mi", "#total")
	var label string
	b.eval(t, `document.querySelector("#machine").selectedOptions[0].textContent`, &label)
	if len([]rune(label)) > 40 || !strings.Contains(label, "…") {
		t.Errorf("the menu shows the long machine name %q whole", label)
	}
	var full string
	b.eval(t, fmt.Sprintf("%s(%q)", visibleText, ".machine-name"), &full)
	if !strings.Contains(full, "memwall development machine") {
		t.Errorf("the whole machine name is not shown under the menu: %q", full)
	}
	b.screenshot(t, "kernels-long-machine-name")
	b.noErrors(t, "names explained")
}
