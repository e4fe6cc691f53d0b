package app

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/presets"
)

// TestPaperReplication renders the page and checks the table against
// presets.MBRAMReplication itself: one row per printed prediction, the
// agreement count, one footnote per distinct reason shared by its rows, and
// links that reopen each calculation on the Kernels page.
func TestPaperReplication(t *testing.T) {
	want, err := presets.MBRAMReplication()
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	reasons := map[string]bool{}
	for _, r := range want {
		if r.Matches {
			agree++
		} else {
			reasons[r.Reason] = true
		}
	}
	p := &paperPage{}
	open(t, p, "https://memwall.test/paper")
	html := app.HTMLString(p)

	if got := strings.Count(html, "data-figure="); got != len(want) {
		t.Errorf("the table has %d rows, want %d (the MBRAM paper prints 19)", got, len(want))
	}
	summary := fmt.Sprintf("%d printed predictions: %d agree with memwall to the printed precision, %d differ by more than rounding, for the %d reasons",
		len(want), agree, len(want)-agree, len(reasons))
	if !strings.Contains(html, summary) {
		t.Errorf("the page lacks %q", summary)
	}
	if p.rep.Agree != agree || len(p.rep.Notes) != len(reasons) {
		t.Errorf("view: %d agree, %d notes; want %d, %d", p.rep.Agree, len(p.rep.Notes), agree, len(reasons))
	}
	if !strings.Contains(html, "lower bound") {
		t.Error("the page does not say that every formula is a lower bound")
	}

	noteOf := map[string]int{}
	for i, r := range p.rep.Rows {
		w := want[i]
		if r.Figure != w.Figure || r.Kernel != w.Kernel || r.Machine != w.Machine || r.Engine != w.Engine {
			t.Fatalf("row %d is %s %s %s, want %s %s %s", i, r.Figure, r.Kernel, r.Machine, w.Figure, w.Kernel, w.Machine)
		}
		switch {
		case w.Matches && r.Note != 0:
			t.Errorf("%s on %s agrees but has footnote %d", r.label(), r.Machine, r.Note)
		case !w.Matches && r.Note == 0:
			t.Errorf("%s on %s differs but has no footnote", r.label(), r.Machine)
		case !w.Matches:
			if n, seen := noteOf[w.Reason]; seen && n != r.Note {
				t.Errorf("%s on %s: footnote %d, but its reason is footnote %d", r.label(), r.Machine, r.Note, n)
			}
			noteOf[w.Reason] = r.Note
			if !strings.Contains(html, `id="note-`+fmt.Sprint(r.Note)+`"`) {
				t.Errorf("footnote %d is not on the page", r.Note)
			}
		}

		// The link reopens the same calculation on the Kernels page.
		u, err := url.Parse(r.Link)
		if err != nil || u.Path != "/" {
			t.Fatalf("%s: link %q", r.label(), r.Link)
		}
		s, probs := scenario.ParseFragment(u.EscapedFragment(), scenario.Default(presets.Machine), presets.Machine)
		params := w.Params
		if params.Buckets == 0 { // the matrix product uses none; the link carries the default
			params.Buckets = mbram.DefaultParams(0).Buckets
		}
		if len(probs) > 0 || s.Machine.ID != w.Machine || s.Kernel != w.Kernel || s.Params != params {
			t.Errorf("%s: link %q opens %s %s %+v (%v)", r.label(), r.Link, s.Machine.ID, s.Kernel, s.Params, probs)
		}
		if b, err := s.Predict(); err != nil || b.Seconds != w.Engine {
			t.Errorf("%s: the link predicts %v (%v), the table %v", r.label(), b.Seconds, err, w.Engine)
		}
	}

	// The MBRAM paper's Fig. 5: quicksort printed 1.51 s; memwall 1.514 s.
	for _, r := range p.rep.Rows {
		if r.Kernel == "quicksort" && (r.printedText() != "1.51" || r.engineText() != "1.514" || !r.Matches) {
			t.Errorf("quicksort row: printed %s, memwall %s, agree %v", r.printedText(), r.engineText(), r.Matches)
		}
	}
	for _, want := range []string{">1.51<", ">1.514<", ">8743.913<"} {
		if !strings.Contains(html, want) {
			t.Errorf("the table lacks %s", want)
		}
	}
}

// TestPaperFig1 checks the Fig. 1 story: the two-pass algorithm loses on
// the Pentium II and III and wins on both Pentium 4s (the MBRAM paper's Figs. 1 and
// 3), and the sentence names the machines from the numbers.
func TestPaperFig1(t *testing.T) {
	p := &paperPage{}
	open(t, p, "https://memwall.test/paper")
	v := p.fig1
	if v.Err != "" || len(v.Rows) != 4 {
		t.Fatalf("fig1: %q, %d rows", v.Err, len(v.Rows))
	}
	wins := map[string]bool{"p2-0.35-pc66": false, "p3-0.6-pc100": false, "p4-1.7-pc133": true, "p4-2.66-ddr266": true}
	for i, r := range v.Rows {
		if r.Machine.ID != fig1Machines[i] {
			t.Errorf("row %d is %s, want %s (oldest to newest)", i, r.Machine.ID, fig1Machines[i])
		}
		if r.Wins != wins[r.Machine.ID] || r.Wins != (r.TwoPass < r.Trad) {
			t.Errorf("%s: two-pass %v s, traditional %v s, wins=%v", r.Machine.ID, r.TwoPass, r.Trad, r.Wins)
		}
		if r.MTrad <= 0 || r.MTwoPass <= 0 || !r.MeasuredOK {
			t.Errorf("%s: measured %v, %v (agree %v)", r.Machine.ID, r.MTrad, r.MTwoPass, r.MeasuredOK)
		}
	}
	lose, win, ok := strings.Cut(v.Sentence, " and to win on ")
	if !ok {
		t.Fatalf("sentence %q", v.Sentence)
	}
	for _, r := range v.Rows {
		in := win
		if !r.Wins {
			in = lose
		}
		if !strings.Contains(in, r.Machine.Name) {
			t.Errorf("sentence %q does not put %s where it belongs", v.Sentence, r.Machine.Name)
		}
	}
	if !strings.Contains(app.HTMLString(p), strings.ReplaceAll(v.Sentence, "'", "&#39;")) {
		t.Error("the sentence is not on the page")
	}
	var opt map[string]any
	if err := json.Unmarshal([]byte(v.Option), &opt); err != nil {
		t.Fatalf("fig1 option: %v", err)
	}
	if s := opt["series"].([]any); len(s) != 3 {
		t.Errorf("fig1 chart has %d series, want two bar series and the markers' legend entry", len(s))
	}
}

// TestPaperAcross checks the across-machines chart: a line per library
// machine and kernel, the kernel choice in the link, and a bad link.
func TestPaperAcross(t *testing.T) {
	nMachines := len(presets.Machines())
	for _, c := range []struct {
		frag   string
		choice string
		lines  int
		msgs   int
	}{
		{"", acrossPair, 2 * nMachines, 0},
		{"#kernel=quicksort", "quicksort", nMachines, 0},
		{"#kernel=matmul", "matmul", nMachines, 0},
		{"#kernel=%3Cscript%3E", acrossPair, 2 * nMachines, 1},
		{"#colour=red", acrossPair, 2 * nMachines, 1},
	} {
		p := &paperPage{}
		open(t, p, "https://memwall.test/paper"+c.frag)
		if p.choice != c.choice || len(p.linkMsgs) != c.msgs {
			t.Errorf("%q: choice %s, messages %q", c.frag, p.choice, p.linkMsgs)
		}
		var opt struct {
			Series []struct {
				Name string      `json:"name"`
				Data [][]float64 `json:"data"`
			} `json:"series"`
		}
		if err := json.Unmarshal([]byte(p.across.Option), &opt); err != nil {
			t.Fatalf("%q: option: %v", c.frag, err)
		}
		if len(opt.Series) != c.lines || p.across.Machines != nMachines {
			t.Errorf("%q: %d lines on %d machines, want %d", c.frag, len(opt.Series), p.across.Machines, c.lines)
		}
		for _, s := range opt.Series {
			if len(s.Data) < acrossPoints/2 {
				t.Errorf("%q: %s has %d points", c.frag, s.Name, len(s.Data))
			}
			for _, pt := range s.Data {
				if math.IsNaN(pt[1]) || pt[1] <= 0 {
					t.Errorf("%q: %s has point %v", c.frag, s.Name, pt)
				}
			}
		}
		if k, ok := mbram.Lookup(c.choice); ok && k.NIsDimension() {
			if last := opt.Series[0].Data[len(opt.Series[0].Data)-1][0]; last > mbram.MaxMatrix {
				t.Errorf("matmul drawn to n = %v", last)
			}
		}
	}
}
