package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fieldValues reads the values of the inputs whose ids start with prefix.
func fieldValues(t testing.TB, b *browser, prefix string) map[string]string {
	t.Helper()
	var vals map[string]string
	b.eval(t, `Object.fromEntries([...document.querySelectorAll('input[id^="`+prefix+`"]')].filter(e => e.type === "text").map(e => [e.id, e.value]))`, &vals)
	return vals
}

// TestFormsKeepWhatWasTyped: a refused value stays as typed and is marked,
// and nothing else in the form moves (issue point 1).
func TestFormsKeepWhatWasTyped(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")

	// New machine, β1 = 0, Save: refused; every field as it was typed.
	b.run(t, chromedp.Click("#new-machine", chromedp.ByQuery), chromedp.WaitVisible("#machine-form", chromedp.ByQuery))
	b.typeInto(t, "#m-name", "Zero rig")
	b.typeInto(t, "#m-beta1", "0")
	before := fieldValues(t, b, "m-")
	clickSave(t, b)
	b.waitFor(t, "the refusal", `document.querySelector("#notice")?.textContent.includes("Not saved")`)
	after := fieldValues(t, b, "m-")
	if after["m-beta1"] != "0" || after["m-name"] != "Zero rig" {
		t.Errorf("after a refused save the form reads %v; typed %v", after, before)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s went from %q to %q on a refused save", k, v, after[k])
		}
	}
	var marked bool
	b.eval(t, `document.querySelector("#m-beta1").getAttribute("aria-invalid") === "true"`, &marked)
	if !marked {
		t.Error("the refused β1 is not marked invalid")
	}

	// Derive from specifications: the typed specification stays, the
	// editor opens with the focus in it.
	// The element's own click (a click at its place missed now and then
	// under the load of a full test run).
	b.run(t, chromedp.Evaluate(`document.querySelector('#machine-form button[type="button"]').click()`, nil))
	b.waitFor(t, "the editor closed", `!document.querySelector("#machine-form")`)
	b.typeInto(t, "#s-bus_frequency", "400 MHz")
	specBefore := fieldValues(t, b, "s-")
	b.run(t, chromedp.Click("#derive-button", chromedp.ByQuery))
	b.waitFor(t, "the derived β1", `document.querySelector("#m-beta1").value === "3.2 GB/s"`)
	if got := fieldValues(t, b, "s-"); got["s-bus_frequency"] != "400 MHz" {
		t.Errorf("the specification fields reset after Derive: %v; typed %v", got, specBefore)
	}
	b.waitFor(t, "the focus in the editor", `document.activeElement && document.activeElement.closest("#editor")`)
	var top float64
	b.eval(t, `document.querySelector("#editor").getBoundingClientRect().top`, &top)
	if top < -1 || top > 844 {
		t.Errorf("the editor opened outside the visible area (top %v)", top)
	}
	b.noErrors(t, "forms")
}

// TestNumbersRoundTrip: what the app shows can be typed back, derived values
// appear with sensible digits in units, and links stay readable (point 2).
func TestNumbersRoundTrip(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/machines", "#presets")
	// A derived machine: β1 = 8 B × 266 MHz, β2 = 128/(10/133e6 + 128/β1),
	// m = 20/2.66 GHz = 7.519 ns; shown in units, not as exponents.
	b.run(t, chromedp.Click("#derive-button", chromedp.ByQuery), chromedp.WaitVisible("#machine-form", chromedp.ByQuery))
	vals := fieldValues(t, b, "m-")
	for _, k := range []string{"m-beta1", "m-beta2", "m-mispredict", "m-cache", "m-line"} {
		v := vals[k]
		if strings.ContainsAny(v, "e") && !strings.Contains(v, "Be") || len(v) > 12 {
			t.Errorf("%s shows %q: not a value with sensible digits", k, v)
		}
	}
	// A size shown with four digits is accepted back.
	b.typeInto(t, "#m-cache", "10.42 MiB")
	b.typeInto(t, "#m-name", "Derived rig")
	clickSave(t, b)
	b.waitFor(t, "the saved machine", `document.querySelector('#user-table tr[data-id="my-derived-rig"]')`)
	row := b.text(t, `#user-table tr[data-id="my-derived-rig"]`)
	if !strings.Contains(row, "10.42 MiB") {
		t.Errorf("saved row %q lacks C = 10.42 MiB", row)
	}
	// Its Use link is readable: no value with more than six significant digits.
	var href string
	b.eval(t, `document.querySelector('#user-table tr[data-id="my-derived-rig"] a.button').getAttribute("href")`, &href)
	for _, kv := range strings.Split(href[strings.Index(href, "#")+1:], "&") {
		digits := 0
		for _, c := range kv {
			if c >= '0' && c <= '9' {
				digits++
			}
		}
		if digits > 8 {
			t.Errorf("link value %q is not readable (%d digits)", kv, digits)
		}
	}
	// A link whose custom machine has one bad value names it and keeps the rest.
	b.open(t, srv.URL+"/#machine=custom&name=Rig&beta1=0GB/s&beta2=1GB/s&mu1=2&cache=1MiB&line=64B&mispredict=5ns&kernel=heapsort&n=1Mi", "#total")
	probs := b.text(t, "#link-problems")
	if !strings.Contains(probs, "beta1") {
		t.Errorf("link problems %q do not name beta1", probs)
	}
	if sum := b.text(t, ".machine-summary"); !strings.Contains(sum, "1 GB/s") || !strings.Contains(sum, "1 MiB") {
		t.Errorf("the link's other machine values were not kept: %q", sum)
	}
	b.noErrors(t, "round trip")
}

// TestLimitsHold: n's limit is stated once and holds; non-integers are
// refused; the link is written only from accepted values (point 3).
func TestLimitsHold(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/#machine=p4-2.66-ddr266&kernel=heapsort&n=1Mi", "#total")
	hint := b.text(t, "#n-hint")
	b.typeInto(t, "#n", "2^50")
	b.waitFor(t, "n = 2^50 accepted", `!document.querySelector("#n-err") && location.hash.includes("n=1Pi")`)
	b.typeInto(t, "#n", "1.5")
	b.waitFor(t, "1.5 refused", `document.querySelector("#n-err")?.textContent.includes("whole number")`)
	b.typeInto(t, "#n", "2^70")
	b.waitFor(t, "2^70 refused", `document.querySelector("#n-err")?.textContent.includes("2^70")`)
	msg := b.text(t, "#n-err")
	if strings.Contains(msg, "2^53") || !strings.Contains(hint, "2^50") || !strings.Contains(msg, "2^50") {
		t.Errorf("the limit is not stated once: hint %q, message %q", hint, msg)
	}
	if loc := b.location(t); !strings.Contains(loc, "n=1Pi") {
		t.Errorf("the link holds a value that was not accepted: %s", loc)
	}
	var stale bool
	b.eval(t, `!!document.querySelector("#result.stale, #result .stale")`, &stale)
	if !stale {
		t.Error("the result does not say it is for the last accepted input")
	}
	b.noErrors(t, "limits")
}

// TestNearIntegersRefused types counts that are not whole but round to a
// whole float64 ("1.0000000000000001" used to become n = 1): the Kernels
// page's n and the Supersteps page's n refuse them with the field named,
// and the link keeps the last accepted value.
func TestNearIntegersRefused(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	for _, c := range []struct{ url, field, label string }{
		{"/#machine=p4-2.66-ddr266&kernel=heapsort&n=1Mi", "#n", "n"},
		{"/supersteps", "#ss-n", "Elements n"},
	} {
		b.freshOpen(t, srv.URL+c.url, c.field)
		before := b.location(t)
		b.retype(t, c.field, "1.0000000000000001")
		b.waitFor(t, c.field+" refused", fmt.Sprintf(`document.querySelector(%q)?.textContent.includes("whole number")`, c.field+"-err"))
		if msg := b.text(t, c.field+"-err"); !strings.Contains(msg, c.label) && !strings.Contains(msg, "1.0000000000000001") {
			t.Errorf("%s: the message %q names neither the field nor the value", c.field, msg)
		}
		if strings.Contains(b.location(t), "n=1&") || strings.HasSuffix(b.location(t), "n=1") {
			t.Errorf("%s: the link took n = 1 (was %s, now %s)", c.field, before, b.location(t))
		}
	}
	b.noErrors(t, "near integers")
}
