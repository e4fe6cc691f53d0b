package app

import (
	"strings"
	"testing"

	"memwall/engine/fit"
	"memwall/engine/numl"
	"memwall/presets"
)

// TestCommunicationLink: a link's values reach the engine, and the page
// writes them back in the same readable form. One column of 4-byte
// integers from a 1024-row array with rows of 4096 bytes and 64-byte
// lines touches one line per row (the lines-touched paper's section 3.2.1): u = 1024.
func TestCommunicationLink(t *testing.T) {
	var p communicationPage
	p.load(nil, "kind=columns&W=4KiB&k=1&w=4&r=2%5E10&L=64&o=0&N=8&px=4&pr=2&pc=2&bmax=4&std=alpha%3D1ms&m1=alpha%3D1ms")
	if len(p.linkMsgs) != 0 || len(p.errs) != 0 {
		t.Fatalf("%v %v", p.linkMsgs, p.errs)
	}
	if p.out.u != 1024 || p.out.span.Max != 2048 {
		t.Errorf("u = %d, span %+v", p.out.u, p.out.span)
	}
	// Messages only: Conv-Shift sends 2(b − 1), Conv-Scan 5 → b = 4.
	if !p.out.m1.Found || p.out.m1.Crossover != 4 {
		t.Errorf("crossover %+v", p.out.m1)
	}
	frag, err := p.fragment()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kind=columns", "W=4KiB", "r=2%5E10", "std=alpha%3D1ms"} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment %q lacks %q", frag, want)
		}
	}
	var q communicationPage
	q.load(nil, frag)
	if qf, _ := q.fragment(); q.out.u != p.out.u || qf != frag {
		t.Errorf("round trip: %q → %q", frag, qf)
	}
}

// TestCommunicationBadInput: each bad value is marked under its field by
// name, the results of the last good inputs stay, and a link with garbage
// says what it could not use.
func TestCommunicationBadInput(t *testing.T) {
	for _, c := range []struct {
		frag, key, want string
	}{
		{"W=lots", "W", "Row width W"},
		{"L=0", "L", "Line size L"},
		{"o=64", "o", "Offset o"},
		{"k=2000", "k", "k: "},
		{"r=2%5E60", "r", "Rows r"},
		{"kind=diagonal", "kind", "rows or columns"},
		{"pr=0", "pr", "Mesh rows"},
		{"px=0", "px", "Bytes per pixel"},
		{"N=16&pr=4&pc=4&bmax=10", "bmax", "Largest box size"},
		{"m1=alpha%3Dsoon", "m1", "M1 coefficients"},
		{"std=gamma%3D1ns", "std", "no lines-touched terms"},
	} {
		var p communicationPage
		p.load(nil, c.frag)
		if !strings.Contains(p.errs[c.key], c.want) {
			t.Errorf("%s: errs %v, want %q under %s", c.frag, p.errs, c.want, c.key)
		}
		if len(p.linkMsgs) == 0 {
			t.Errorf("%s: no link message", c.frag)
		}
	}
	var p communicationPage
	p.load(nil, "W=%3Cscript%3E&zz=1")
	if len(p.linkMsgs) < 2 || p.out.in.shapeOK {
		t.Errorf("%v %+v", p.linkMsgs, p.out.in)
	}
}

// TestLinesSVG: one cell per line, touched ones marked, and the picture's
// touched count is the engine's u (the whole array is shown).
func TestLinesSVG(t *testing.T) {
	s := numl.Shape{Kind: numl.Columns, W: 128, K: 3, Elem: 4, R: 8, Line: 64, Offset: 60}
	use, total, err := numl.Use(s, maxPictureLines)
	if err != nil || int64(len(use)) != total {
		t.Fatal(err)
	}
	svg := linesSVG(use, 2, 64)
	u, _ := numl.Lines(s)
	if got := strings.Count(svg, `class="hit"`); int64(got) != u {
		t.Errorf("%d touched cells, u = %d", got, u)
	}
	if got := strings.Count(svg, "<title>"); got != len(use) {
		t.Errorf("%d cells for %d lines", got, len(use))
	}
}

// TestCommunicationFit: the page fits the six sets to the built-in
// measurements with the W = 4000 arrays held out, exactly as engine/numl
// does, and "Use these coefficients" puts S1's and M1's message costs
// into the convolution while keeping the statement costs.
func TestCommunicationFit(t *testing.T) {
	var p communicationPage
	p.load(nil, "")
	if len(p.linkMsgs) != 0 || p.fit.err != "" || p.fit.trainErr != "" {
		t.Fatalf("%v %q %q", p.linkMsgs, p.fit.err, p.fit.trainErr)
	}
	tbl, err := presets.Dataset(commDevbox)
	if err != nil {
		t.Fatal(err)
	}
	cond, _ := fit.ParseCond(commDevboxTrain)
	want, err := numl.FitSets(tbl, "time", cond, nil)
	if err != nil || len(p.fit.sets) != 6 {
		t.Fatalf("%d sets; engine: %v", len(p.fit.sets), err)
	}
	for i, s := range want {
		got := p.fit.sets[i]
		if s.Err != nil || got.Err != nil || got.Result.Test.SE != s.Result.Test.SE || got.Result.Train.D != s.Result.Train.D || got.Result.Test.N == 0 {
			t.Errorf("%s: page %+v, engine %+v", s.Set.Name, got.Result.Test, s.Result.Test)
		}
	}
	if p.fit.chart == "" || !p.fit.seconds || p.fit.trainN+p.fit.testN != tbl.Len() {
		t.Errorf("chart %d bytes, seconds %v, %d + %d rows", len(p.fit.chart), p.fit.seconds, p.fit.trainN, p.fit.testN)
	}
	if !p.useFit(nil) {
		t.Fatal("the fits were not used")
	}
	s1, _, _ := numl.MessageCoef(want[0].Result.Model)
	m1, _, _ := numl.MessageCoef(want[3].Result.Model)
	exStd, exM1 := numl.ExampleCoefficients()
	s1.Delta, s1.BetaMem = exStd.Delta, exStd.BetaMem
	m1.Delta, m1.BetaMem, m1.GammaMem = exM1.Delta, exM1.BetaMem, exM1.GammaMem
	if p.form.text["std"] != s1.String() || p.form.text["m1"] != m1.String() || !p.out.in.convOK {
		t.Errorf("std %q, m1 %q; want %q, %q", p.form.text["std"], p.form.text["m1"], s1, m1)
	}
	if frag, _ := p.fragment(); !strings.Contains(frag, "train=W+!%3D+4000") {
		t.Errorf("fragment %q lacks the training rows", frag)
	}

	// Bad training rows and unknown data are named.
	for _, c := range []struct{ frag, want string }{
		{"train=W+%3E%3D", "Training rows"},
		{"train=zz+%3D%3D+1", "Training rows"},
		{"data=chittor-table6", "no built-in set of message times"},
		{"data=file", "imported file"},
		{"y=nothing", "no numeric column"},
	} {
		var q communicationPage
		q.load(nil, c.frag)
		if msgs := strings.Join(q.linkMsgs, "; "); !strings.Contains(msgs, c.want) {
			t.Errorf("%s: messages %q, want %q", c.frag, msgs, c.want)
		}
	}
	// The data menu offers only sets with n and u.
	for _, d := range commDatasets() {
		if strings.HasPrefix(d.ID, "chittor-") {
			t.Errorf("menu offers %s", d.ID)
		}
	}
}
