package app

import (
	"math"
	"strings"
	"testing"
)

// TestSuperstepsLink: a link's values reach the engine, and the page writes
// them back in the same readable form. Column sort, n = 60000, p = 12, the
// superstep paper's coefficients, each superstep (5000; 5000; 120000) measured at 2 ms.
// By hand (the superstep paper's Tables 2 and 4, p = 12, R0):
// t_g = 279 + 0.0183·5000 + 0.0087·5000 + 0.00004·120000 = 418.8 µs,
// t_b = 16555 + 0.2429·5000 + 0.5755·5000 + 0.1697·120000 = 41011 µs;
// Loc = 1 − (2000 − 418.8)/(41011 − 418.8) = 0.961, M/G = 2000/418.8 = 4.776;
// totals 5·418.8 = 2094 µs and 5·41011 = 205055 µs.
func TestSuperstepsLink(t *testing.T) {
	var p superstepsPage
	p.load(nil, "algo=column&n=60000&p=12&coef=published&tm=2ms,2ms,2ms,2ms,2ms")
	if len(p.linkMsgs) != 0 || len(p.errs) != 0 || !p.out.ok {
		t.Fatalf("%v %v", p.linkMsgs, p.errs)
	}
	pr := p.out.pred
	if math.Abs(pr.Good-2094e-6) > 1e-12 || math.Abs(pr.Bad-205055e-6) > 1e-12 {
		t.Errorf("total [%g, %g]", pr.Good, pr.Bad)
	}
	l := p.out.located.Steps[2]
	if metric(l.Loc, l.LocErr) != "0.961" || metric(l.MG, l.MGErr) != "4.776" {
		t.Errorf("superstep 3: %+v", l)
	}
	if !p.out.located.TotalSummed || metric(p.out.located.Total.Loc, nil) != "0.961" {
		t.Errorf("total %+v", p.out.located.Total)
	}
	frag, _ := p.fragment()
	if frag != "algo=column&n=60000&p=12&coef=published&tm=2ms,2ms,2ms,2ms,2ms" {
		t.Errorf("fragment %q", frag)
	}
	var q superstepsPage
	q.load(nil, frag)
	if qf, _ := q.fragment(); qf != frag || q.out.pred.Good != pr.Good {
		t.Errorf("round trip: %q → %q", frag, qf)
	}
	if !strings.Contains(p.out.chart, `"type":"log"`) || !strings.Contains(p.out.chart, "measured t_m") {
		t.Errorf("chart option %s", p.out.chart)
	}
	// A link of an earlier version names the published set coef=seed.
	var o superstepsPage
	o.load(nil, "algo=column&n=60000&p=12&coef=seed&tm=2ms,2ms,2ms,2ms,2ms")
	if of, _ := o.fragment(); len(o.linkMsgs) != 0 || of != frag || o.out.pred.Good != pr.Good {
		t.Errorf("coef=seed: %q (%v)", of, o.linkMsgs)
	}
}

// TestSuperstepsTyped: typed coefficients for p = 3, which the paper has no
// table for. Sample sort, n = 3000: superstep 5 is (1000; 1000; 6000), so
// t_g = 10 + 0.02·1000 + 0.01·1000 + 0.001·6000 = 46 µs and
// t_b = 1000 + 0.5·1000 + 1·1000 + 0.1·6000 = 3100 µs.
func TestSuperstepsTyped(t *testing.T) {
	var p superstepsPage
	p.load(nil, "algo=sample&n=3000&p=3&s=100&coef=typed&good=L%3D10,+g_hrc%3D0.02,+g_hrm%3D0.05,+g_hwc%3D0.01,+g_hwm%3D0.04,+g_M%3D0.001&bad=L%3D1000,+g_hr%3D0.5,+g_hw%3D1,+g_M%3D0.1&C=2%5E19")
	if len(p.errs) != 0 || !p.out.ok {
		t.Fatalf("%v %v", p.linkMsgs, p.errs)
	}
	s := p.out.pred.Steps[4].Interval
	if math.Abs(s.Good-46e-6) > 1e-15 || math.Abs(s.Bad-3100e-6) > 1e-15 {
		t.Errorf("superstep 5: [%g, %g]", s.Good, s.Bad)
	}
	frag, _ := p.fragment()
	if !strings.Contains(frag, "coef=typed&good=L%3D10,+g_hrc%3D0.02,") || strings.Contains(frag, "good1=") {
		t.Errorf("fragment %q: want the typed Good line and no R1 line", frag)
	}
	if p.out.pred.Set.GoodR1 != nil {
		t.Errorf("a link without good1 has one Good function, got R1 %+v", *p.out.pred.Set.GoodR1)
	}
	// Without typed values in the link, a link for p = 4 with coef=typed
	// starts from Table 2 and 4's p = 4 coefficients.
	var q superstepsPage
	q.load(nil, "p=4&coef=typed")
	if !strings.Contains(q.form.text["bad"], "L=16261") || !strings.Contains(q.form.text["good"], "L=18") {
		t.Errorf("typed defaults for p = 4: %q, %q", q.form.text["good"], q.form.text["bad"])
	}
}

// TestSuperstepsBadInput: each bad value is marked under its field by name,
// the results of the last good inputs stay, and a link with garbage says
// what it could not use.
func TestSuperstepsBadInput(t *testing.T) {
	for _, c := range []struct {
		frag, key, want string
	}{
		{"n=lots", "n", "Elements n"},
		{"n=1&p=2", "n", "Elements n: n = 1"},
		{"n=2%5E41", "n", "Elements n: n = 2199023255552"},
		{"p=3", "p", "Processors p: the superstep paper's SGI Power Challenge has coefficients for p = 2, 4, 8 and 12"},
		{"p=0", "p", "Processors p: 0 is outside"},
		{"algo=bubble", "algo", "Algorithm"},
		{"r=40", "r", "Radix bits r: 40 is outside 1 to 24"},
		{"algo=sample&s=0", "s", "Sample per processor"},
		{"coef=typed&bad=L%3D1", "bad", "Bad, HrHwM: g_hr, g_hw, g_M missing"},
		{"coef=typed&good1=L%3Dx", "good1", "Good for h > C (R1)"},
		{"coef=typed&C=-1", "C", "Cache size C"},
		{"tm=fast", "tm1", "Measured time of superstep 1"},
		{"tm=-,-1ms", "tm2", "Measured time of superstep 2: -1ms is negative"},
		{"tmt=soon", "tmt", "Measured time of the whole sort"},
	} {
		var p superstepsPage
		p.load(nil, c.frag)
		if !strings.Contains(p.errs[c.key], c.want) {
			t.Errorf("%s: errs[%s] = %q, want %q (all: %v)", c.frag, c.key, p.errs[c.key], c.want, p.errs)
		}
		if !p.stale {
			t.Errorf("%s: not marked stale", c.frag)
		}
		found := false
		for _, m := range p.linkMsgs {
			found = found || strings.Contains(m, c.want)
		}
		if !found {
			t.Errorf("%s: link messages %v lack %q", c.frag, p.linkMsgs, c.want)
		}
	}
	var p superstepsPage
	p.load(nil, "colour=red&n=%3Cscript%3E&tm=1,2,3,4,5,6")
	joined := strings.Join(p.linkMsgs, " | ")
	for _, want := range []string{"unknown key \"colour\"", "Elements n", "6 measured times"} {
		if !strings.Contains(joined, want) {
			t.Errorf("messages %q lack %q", joined, want)
		}
	}
}
