package e2e

import (
	"fmt"
	"strings"
	"testing"

	"memwall/engine/numl"
)

// engineLines is the engine's exact count and span for a shape, computed
// here so the page's numbers are checked against the engine itself.
func engineLines(t *testing.T, s numl.Shape) (int64, numl.Range) {
	t.Helper()
	u, err := numl.Lines(s)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := numl.Span(s)
	if err != nil {
		t.Fatal(err)
	}
	return u, sp
}

// TestCommunication opens the Communication page, changes the message and
// the convolution, checks the numbers shown against the engine, marks a
// bad field, and opens the share link in a fresh page.
func TestCommunication(t *testing.T) {
	needBrowser(t)
	srv := startServe(t, siteDir)
	b := newBrowser(t)
	b.open(t, srv.URL+"/communication", "#u")

	// Defaults: 3 columns of 4 bytes from 1000 rows of 4000 bytes, 64-byte
	// lines, offset 5.
	s := numl.Shape{Kind: numl.Columns, W: 4000, K: 3, Elem: 4, R: 1000, Line: 64, Offset: 5}
	u, sp := engineLines(t, s)
	if got := b.text(t, "#u"); got != fmt.Sprint(u) {
		t.Errorf("default u shown %q, engine %d", got, u)
	}
	if got := b.text(t, "#v-u-max"); got != fmt.Sprintf("%d (o = %d)", sp.Max, sp.MaxOffset) {
		t.Errorf("max shown %q, engine %+v", got, sp)
	}
	b.waitFor(t, "the lines picture", `document.querySelector("#lines-svg rect")`)
	b.waitFor(t, "the convolution chart", `document.querySelector("#conv-chart svg")`)
	b.screenshot(t, "communication-default")

	// Offset 21 is the worst alignment for this shape.
	b.retype(t, "#comm-o", "21")
	s.Offset = 21
	u, _ = engineLines(t, s)
	b.waitFor(t, "u at offset 21", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))

	// A narrow array where rows share lines: W = 20, k = 2, w = 4, r = 30.
	b.retype(t, "#comm-W", "20")
	b.retype(t, "#comm-k", "2")
	b.retype(t, "#comm-r", "30")
	b.retype(t, "#comm-o", "3")
	s = numl.Shape{Kind: numl.Columns, W: 20, K: 2, Elem: 4, R: 30, Line: 64, Offset: 3}
	u, sp = engineLines(t, s)
	b.waitFor(t, "u for the narrow array", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))
	if got := b.text(t, "#v-u-min"); got != fmt.Sprintf("%d (o = %d)", sp.Min, sp.MinOffset) {
		t.Errorf("min shown %q, engine %+v", got, sp)
	}
	var hits int
	b.eval(t, `document.querySelectorAll("#lines-svg g.hit").length`, &hits)
	if int64(hits) != u {
		t.Errorf("%d touched cells drawn, u = %d", hits, u)
	}
	b.screenshot(t, "communication-narrow")

	// Rows.
	b.choose(t, "#comm-kind", "rows")
	s = numl.Shape{Kind: numl.Rows, W: 20, K: 2, Line: 64, Offset: 3}
	u, _ = engineLines(t, s)
	b.waitFor(t, "u for rows", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))

	// A bad line size is named under its field, and the last results stay.
	b.retype(t, "#comm-L", "0")
	b.waitFor(t, "the line-size message", `document.querySelector("#comm-L-err") && document.querySelector("#comm-L-err").textContent.includes("Line size L")`)
	if got := b.text(t, "#u"); got != fmt.Sprint(u) {
		t.Errorf("u after a bad L: %q, want the last good %d", got, u)
	}
	b.retype(t, "#comm-L", "64")

	// The convolution: 8×8 image, 2×2 mesh, messages only; the crossover is
	// where the engine puts it (b = 4 by hand: 2(b − 1) > 5 messages).
	b.retype(t, "#comm-N", "8")
	b.retype(t, "#comm-pr", "2")
	b.retype(t, "#comm-pc", "2")
	b.retype(t, "#comm-bmax", "4")
	b.retype(t, "#comm-m1", "alpha=1ms")
	b.retype(t, "#comm-std", "alpha=1ms, beta=1us")
	conv := numl.Conv{N: 8, Elem: 4, Pr: 2, Pc: 2, Line: 64}
	m1, _ := numl.Compare(conv, numl.Coef{Alpha: 1e-3}, 4)
	std, _ := numl.Compare(conv, numl.Coef{Alpha: 1e-3, Beta: 1e-6}, 4)
	want := func(cv numl.Curve) string {
		if cv.Found {
			return fmt.Sprintf("b = %d", cv.Crossover)
		}
		return "none up to b = 4"
	}
	if m1.Crossover != 4 {
		t.Fatalf("engine crossover %+v, hand calculation b = 4", m1)
	}
	b.waitFor(t, "the M1 crossover", fmt.Sprintf(`document.querySelector("#cross-m1").textContent.trim() === %q`, want(m1)))
	if got := b.text(t, "#cross-std"); got != want(std) {
		t.Errorf("standard crossover shown %q, engine %q", got, want(std))
	}
	var rows int
	b.eval(t, `document.querySelectorAll("#conv-table tbody tr").length`, &rows)
	if rows != 4 {
		t.Errorf("%d rows in the convolution table", rows)
	}
	b.screenshot(t, "communication-conv")

	// The link reproduces the page.
	link := b.location(t)
	frag := fragment(t, link)
	for _, k := range []string{"kind=rows", "W=20", "N=8", "m1=alpha%3D1ms"} {
		if !strings.Contains(frag, k) {
			t.Errorf("fragment %q lacks %s", frag, k)
		}
	}
	b.freshOpen(t, link, "#u")
	b.waitFor(t, "u from the link", fmt.Sprintf(`document.querySelector("#u").textContent.trim() === %q`, fmt.Sprint(u)))
	if got := b.text(t, "#cross-m1"); got != want(m1) {
		t.Errorf("crossover from the link %q", got)
	}
	b.screenshot(t, "communication-link")
	b.noErrors(t, "communication")

	// A link with garbage lists what it could not use.
	b.freshOpen(t, srv.URL+"/communication#W=%3Cb%3Ex%3C/b%3E&zz=1", "#link-problems")
	if got := b.text(t, "#link-problems"); !strings.Contains(got, "Row width W") || !strings.Contains(got, "unknown key") {
		t.Errorf("link problems: %q", got)
	}
}
