package app

import (
	"fmt"
	"memwall/engine/speedup"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/dataset"
)

func TestSpeedupEq14(t *testing.T) {
	p := &speedupPage{}
	p.load("data=chittor-table6&terms=" + linkEscape(speedup.Eq14Terms) + "&region=" + linkEscape("N <= 2^9 && P <= 2^4") + "&w=abs&n=8192")
	if len(p.linkMsgs) > 0 {
		t.Fatalf("link problems: %v", p.linkMsgs)
	}
	if p.out.err != "" || p.out.res == nil {
		t.Fatalf("fit: %q", p.out.err)
	}
	if got := fmtNum(p.out.res.Model.Coef[0]); !strings.HasPrefix(got, "14773") {
		t.Errorf("constant = %s, eq. 14 prints 14773", got)
	}
	if p.out.res.Train.N != 34 || p.out.res.Test.N != 51 {
		t.Errorf("train/test = %d/%d, want 34/51", p.out.res.Train.N, p.out.res.Test.N)
	}
	if p.out.curve == nil || len(p.out.multi) == 0 || len(p.out.theo) == 0 {
		t.Fatalf("curve %v, multi %d, theoretic %d; curve message %q", p.out.curve != nil, len(p.out.multi), len(p.out.theo), p.out.curveMsg)
	}
	// The fragment the page writes reads back to the same inputs.
	q := &speedupPage{}
	q.load(p.fragment())
	if len(q.linkMsgs) > 0 || q.fragment() != p.fragment() || q.out.res.Model.Coef[0] != p.out.res.Model.Coef[0] {
		t.Errorf("round trip: %q -> %q (%v)", p.fragment(), q.fragment(), q.linkMsgs)
	}
}

// TestSpeedupOldIDs: links made before the thesis's tables and fits were
// named after it (data=seed002-table6, model=seed002-eq14) open the same
// data and model, without a message, and are rewritten to the current ids.
func TestSpeedupOldIDs(t *testing.T) {
	p := &speedupPage{}
	p.load("data=seed002-table5")
	q := &speedupPage{}
	q.load("data=seed002-table6&model=seed002-eq14")
	if len(p.linkMsgs) > 0 || p.data != table5 || len(q.linkMsgs) > 0 || q.data != table6 || q.model != "chittor-eq14" {
		t.Fatalf("data %q %v; data %q model %q %v", p.data, p.linkMsgs, q.data, q.model, q.linkMsgs)
	}
	if f := q.fragment(); !strings.Contains(f, "data=chittor-table6") || !strings.Contains(f, "model=chittor-eq14") {
		t.Errorf("fragment %q", f)
	}
}

func TestSpeedupBadLinks(t *testing.T) {
	for _, frag := range []string{
		"data=<script>alert(1)</script>",
		"terms=N/P*log2(&region=N<<<2",
		"w=sideways&n=-3&zzz=1",
		"%zz=%zz",
		"data=file",
		"n=2^99",
		"model=nope&y=nope",
		strings.Repeat("a", 5000),
		"terms=" + strings.Repeat("N,", 600),
	} {
		p := &speedupPage{}
		p.load(frag)
		if len(p.linkMsgs) == 0 {
			t.Errorf("%.40q: no message", frag)
		}
		if p.tbl == nil {
			t.Errorf("%.40q: no data", frag)
		}
		app.NewServerTester(p) // mounts the whole page
		html := app.HTMLString(p)
		if strings.Contains(html, "<script") {
			t.Errorf("%.40q: markup from the link reached the page", frag)
		}
	}
}

func TestSpeedupTermsCaret(t *testing.T) {
	p := &speedupPage{}
	p.load("terms=" + linkEscape("1, N/P*log2(P, P"))
	if p.errs["terms"] == "" || p.termsAt < 0 {
		t.Fatalf("errs %v at %d", p.errs, p.termsAt)
	}
	if !strings.Contains(p.errs["terms"], "term 2") {
		t.Errorf("message %q does not name the term", p.errs["terms"])
	}
	if p.out.res != nil {
		t.Errorf("a fit was shown for terms that do not parse")
	}
}

func TestSpeedupTablesWithoutCurves(t *testing.T) {
	for _, id := range []string{table3, table4, table5} {
		p := &speedupPage{}
		p.load("data=" + id)
		if p.out.err != "" || p.out.res == nil {
			t.Errorf("%s: %q", id, p.out.err)
		}
		if p.out.curve != nil || p.out.curveMsg == "" {
			t.Errorf("%s: curve without N and P times", id)
		}
	}
}

// BenchmarkSpeedup10k is the fitting target of docs/readings.md (Targets) through the
// page: 10 000 measured points, 10 terms, automatic weighting, curves.
func BenchmarkSpeedup10k(b *testing.B) {
	var csv strings.Builder
	csv.WriteString("N,P,T\n")
	for i := 0; i < 10000; i++ {
		n, p := float64(int(1)<<(3+i%14)), float64(int(1)<<(i/14%7))
		fmt.Fprintf(&csv, "%g,%g,%g\n", n, p, 300+2*n/p+40*p+float64(i%13))
	}
	tbl, _, err := dataset.Read(strings.NewReader(csv.String()), dataset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p := &speedupPage{}
	p.load("")
	p.file, p.fileName = tbl, "big.csv"
	p.setData(fileData)
	p.text["terms"] = "1, P, P*log2(P), log2(P), N/P, N/P*log2(P), N/P*log2(P)^2, N/P*log2(N/P), N/P*log2(N/P)^2, N*log2(N)"
	p.text["region"] = "N <= 2^12"
	if !p.applyText() {
		b.Fatal(p.errs)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.recompute()
	}
	if p.out.err != "" {
		b.Fatal(p.out.err)
	}
}

// TestSpeedupDataMenu: the data menu offers only the built-in sets with a
// problem size N or a processor count P (Chittor's tables), not the
// lines-touched paper's message timings, and a link naming one of those is told why.
func TestSpeedupDataMenu(t *testing.T) {
	p := &speedupPage{}
	p.load("")
	ids := map[string]bool{}
	for _, o := range p.dataOptions() {
		ids[o.Value] = true
	}
	if !ids[table6] || !ids[table3] || ids["numl-devbox"] {
		t.Errorf("menu %v", ids)
	}
	p.load("data=numl-devbox")
	if p.data != table6 || len(p.linkMsgs) != 1 || !strings.Contains(p.linkMsgs[0], "no column N or P") {
		t.Errorf("data %q, messages %v", p.data, p.linkMsgs)
	}
}

// TestSpeedupPRangeLink: "P from" and "P to" from a link set the Ps of the
// speedup curve; a fraction or a P to above N is refused with the field
// named.
func TestSpeedupPRangeLink(t *testing.T) {
	p := &speedupPage{}
	p.load("data=chittor-table6&n=8192&pfrom=4&pto=6000")
	if len(p.linkMsgs) > 0 || p.out.curve == nil {
		t.Fatalf("link problems %v, curve %v (%q)", p.linkMsgs, p.out.curve != nil, p.out.curveMsg)
	}
	var ps []float64
	for _, pt := range p.out.curve.Predicted.Points {
		ps = append(ps, pt.P)
	}
	if fmt.Sprint(ps) != "[1 4 8 16 32 64 128 256 512 1024 2048 4096 6000]" {
		t.Errorf("Ps %v", ps)
	}
	for frag, key := range map[string]string{
		"data=chittor-table6&n=8192&pfrom=1.5": "pfrom",
		"data=chittor-table6&n=512&pto=1024":   "pto",
		"data=chittor-table6&pfrom=8&pto=4":    "pto",
	} {
		q := &speedupPage{}
		q.load(frag)
		if e := q.errs[key]; !strings.HasPrefix(e, map[string]string{"pfrom": "P from: ", "pto": "P to: "}[key]) {
			t.Errorf("%s: %s message %q", frag, key, e)
		}
	}
}
