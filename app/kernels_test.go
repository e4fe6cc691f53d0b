package app

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/estimate"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/presets"
)

// open mounts a page in go-app's client tester and navigates to raw.
func open(t *testing.T, c app.Composer, raw string) app.ClientDispatcher {
	t.Helper()
	d := app.NewClientTester(c)
	t.Cleanup(d.Close)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	d.Nav(u)
	d.Consume()
	return d
}

func TestKernelsDefault(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, "https://memwall.test/")
	// The MBRAM paper's Fig. 5: quicksort of 8Mi integers on the 1.7 GHz Pentium 4
	// is printed as 1.51 s.
	if math.Abs(p.est.Breakdown.Seconds-1.51) > 0.01 {
		t.Errorf("default prediction %v s, want 1.51", p.est.Breakdown.Seconds)
	}
	if want := "https://memwall.test/#machine=p4-1.7-pc133&kernel=quicksort&n=8Mi&w=4"; p.share != want {
		t.Errorf("share link %q, want %q", p.share, want)
	}
	// The sweep opens as the MBRAM paper's Fig. 5: all seven sorts, 200 points each.
	if p.sweep.Points != 7*sweepPoints || !strings.Contains(p.sweep.Option, `"type":"log"`) {
		t.Errorf("sweep: %d points, option %.80s", p.sweep.Points, p.sweep.Option)
	}
	var opt map[string]any
	if err := json.Unmarshal([]byte(p.sweep.Option), &opt); err != nil {
		t.Errorf("the sweep option is not JSON: %v", err)
	}
	if err := json.Unmarshal([]byte(p.bars), &opt); err != nil {
		t.Errorf("the breakdown option is not JSON: %v", err)
	}
}

func TestKernelsLinkWithProblems(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, "https://memwall.test/#machine=p4-2.66-ddr266&kernel=heapsort&n=many")
	if len(p.linkMsgs) != 1 || !strings.HasPrefix(p.linkMsgs[0], "n:") {
		t.Errorf("link problems %q, want one for n", p.linkMsgs)
	}
	if p.s.Machine.ID != "p4-2.66-ddr266" || p.s.Kernel != "heapsort" {
		t.Errorf("the good keys were not used: %s %s", p.s.Machine.ID, p.s.Kernel)
	}
	if p.resErr != "" || p.est.Breakdown.Seconds <= 0 {
		t.Errorf("no result: %q", p.resErr)
	}
}

func TestKernelsInlineMachine(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, "https://memwall.test/#machine=custom&name=Box&beta1=3GB/s&beta2=1GB/s&mu1=2&cache=1MiB&line=64B&mispredict=5ns&kernel=radix&n=2^24&b=256")
	if p.linkMachine == nil || p.linkMachine.Name != "Box" || menuValue(p.s.Machine) != "link" {
		t.Fatalf("the link's machine is not offered: %+v, menu at %q", p.linkMachine, menuValue(p.s.Machine))
	}
	if !strings.Contains(p.share, "beta1=3GB/s") || !strings.Contains(p.share, "b=256") {
		t.Errorf("share link %q lost the inline machine or b", p.share)
	}
}

func TestKernelsTextInput(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, "https://memwall.test/")
	before := p.s.Params
	for _, c := range []struct{ key, text, msg string }{
		{"n", "lots", "number"},
		{"n", "0", "from 1"},
		{"n", "3.5", "whole number"},
		{"w", "0", "word size"},
		{"from", "1Gi", ""},        // with the default end, 4Gi: fine
		{"to", "512", "end above"}, // below the default start, 1Ki
	} {
		p.form.set(nil, map[string]string{"n": "8Mi", "w": "4", "b": "64", "from": "", "to": ""})
		p.form.typed(c.key, c.text)
		ok := p.applyText()
		if c.msg == "" {
			if !ok {
				t.Errorf("%s=%q refused: %v", c.key, c.text, p.errs)
			}
			continue
		}
		if ok || !strings.Contains(p.errs[c.key], c.msg) {
			t.Errorf("%s=%q: ok=%v, errors %v; want one containing %q", c.key, c.text, ok, p.errs, c.msg)
		}
		if p.s.Params != before {
			t.Errorf("%s=%q changed the workload to %+v", c.key, c.text, p.s.Params)
		}
	}
	p.form.set(nil, map[string]string{"n": "2^20", "w": "8", "b": "64", "from": "", "to": ""})
	if !p.applyText() || p.s.Params.N != 1<<20 || p.s.Params.W != 8 {
		t.Errorf("good input not applied: %+v %v", p.s.Params, p.errs)
	}
}

func TestLibrary(t *testing.T) {
	var lib library
	m := machine.Machine{Name: "Lab box #1", Beta1: 1e10, Beta2: 1e9, Mu1: 2, C: 1 << 20, B: 64, M: 5e-9}
	a := lib.put(m)
	b := lib.put(m)
	if a.ID != "my-lab-box-1" || b.ID != "my-lab-box-1-2" {
		t.Errorf("ids %q, %q", a.ID, b.ID)
	}
	a.Beta1 = 2e10
	lib.put(a) // same id: replaced
	if len(lib.User) != 2 || lib.User[0].Beta1 != 2e10 {
		t.Errorf("put with a known id did not replace: %+v", lib.User)
	}
	if got, ok := lib.match(b); !ok || got.ID != b.ID {
		t.Errorf("match: %v %v", got.ID, ok)
	}
	lib.remove(a.ID)
	if _, ok := lib.find(a.ID); ok {
		t.Error("remove left the machine")
	}
}

func TestParseMachines(t *testing.T) {
	good := `{"name":"G","beta1":"10 GB/s","beta2":"2 GB/s","mu1":2,"cache":"8 MiB","line":"64 B","mispredict":"5 ns"}`
	bad := `{"name":"B","beta1":"10 GB/s","beta2":"20 GB/s","mu1":2,"cache":"8 MiB","line":"64 B","mispredict":"5 ns"}`
	cases := []struct {
		file       string
		good, bad  int
		badMessage string
	}{
		{good, 1, 0, ""},
		{"[" + good + "," + bad + "]", 1, 1, "machine 2"},
		{"[]", 0, 1, "empty"},
		{"[" + good + ",", 0, 1, "not a JSON array"},
		{"<html>", 0, 1, "JSON"},
		{bad, 0, 1, "beta2"},
	}
	for _, c := range cases {
		ms, errs := parseMachines([]byte(c.file))
		if len(ms) != c.good || len(errs) != c.bad || (c.bad > 0 && !strings.Contains(strings.Join(errs, " "), c.badMessage)) {
			t.Errorf("parseMachines(%.30q): %d good, errors %q", c.file, len(ms), errs)
		}
	}
	// What Export writes, Import reads.
	ms, _ := parseMachines([]byte(good))
	back, errs := parseMachines(machinesFile(append(ms, ms...)))
	if len(back) != 2 || len(errs) > 0 || back[0].Beta1 != 10e9 {
		t.Errorf("export and import: %+v %v", back, errs)
	}
}

func TestMachineEditor(t *testing.T) {
	p := &machinesPage{}
	open(t, p, "https://memwall.test/machines")
	p.openEditor(nil, "", machine.Machine{Name: "X", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 1 << 20, B: 64, M: 5e-9})
	if _, ok := p.readEditor(); !ok {
		t.Fatalf("a good machine refused: %v", p.editErrs)
	}
	for _, c := range []struct{ key, text, msg string }{
		{"beta2", "3 GB/s", "must not exceed"},
		{"line", "96 B", "power of two"},
		{"cache", "32 B", "at least one line"},
		{"mispredict", "5 parsecs", "unknown time unit"},
		{"beta1", "fast", "number"},
		{"name", " ", "name"},
	} {
		saved := p.edit.text[c.key]
		p.edit.typed(c.key, c.text)
		if _, ok := p.readEditor(); ok || !strings.Contains(p.editErrs[c.key], c.msg) {
			t.Errorf("%s=%q: errors %v; want one containing %q", c.key, c.text, p.editErrs, c.msg)
		}
		p.edit.typed(c.key, saved)
	}
	// A derived machine shows six digits at most and keeps its values
	// through the editor to within a millionth.
	m, err := machine.Derive(machine.Spec{BusWidth: 8, BusFrequency: 266e6, LatencyCycles: 10, LatencyClock: 133e6,
		PipelineStages: 20, CPUClock: 2.66e9, Cache: 512 << 10, Line: 128})
	if err != nil {
		t.Fatal(err)
	}
	p.openEditor(nil, "", m)
	got, ok := p.readEditor()
	if !ok || math.Abs(got.Beta2/m.Beta2-1) > 1e-6 || math.Abs(got.M/m.M-1) > 1e-6 || got.Beta1 != m.Beta1 {
		t.Errorf("derived machine through the editor: β2 %v→%v, m %v→%v, errors %v", m.Beta2, got.Beta2, m.M, got.M, p.editErrs)
	}
	if p.edit.text["beta2"] != "945.778 MB/s" || p.edit.text["mispredict"] != "7.5188 ns" {
		t.Errorf("derived machine shown as β2 %q, m %q; want 945.778 MB/s and 7.5188 ns", p.edit.text["beta2"], p.edit.text["mispredict"])
	}
}

func TestTextFieldMarksErrors(t *testing.T) {
	ui := textField{ID: "n", Label: "N", Value: "x", Hint: "h", Err: "bad"}.UI()
	d := app.NewServerTester(ui)
	defer d.Close()
	if err := app.TestMatch(ui, app.TestUIDescriptor{
		Path:     app.TestPath(3),
		Expected: app.P().ID("n-err").Class("error").Aria("live", "polite"),
	}); err != nil {
		t.Error(err)
	}
	var b strings.Builder
	app.PrintHTML(&b, ui)
	// (aria-invalid is checked in the browser: go-app prints the value
	// "true" as a bare attribute on the server.)
	for _, want := range []string{`aria-describedby="n-err n-hint"`, `for="n"`, `class="invalid"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("field HTML lacks %s: %s", want, b.String())
		}
	}
}

func TestRawPartsSplice(t *testing.T) {
	var r rawParts
	opt := map[string]any{"series": []any{map[string]any{"data": r.add([]byte("[[1,2]]"))}, map[string]any{"data": r.add([]byte("[]"))}}}
	got := r.splice(chartJSON(opt))
	if got != `{"series":[{"data":[[1,2]]},{"data":[]}]}` {
		t.Errorf("splice: %s", got)
	}
}

// levelsLink is a machine that gives its cache levels, inline in a link.
const levelsLink = "https://memwall.test/#machine=custom&name=Rig&beta1=12GB/s&beta2=1.5GB/s&mu1=2&mispredict=5ns" +
	"&levels=L1:48KiB:64B:200GB/s:100GB/s:1.2ns,L2:2MiB:64B:80GB/s:40GB/s:4ns,L3:32MiB:64B:30GB/s:10GB/s:15ns&mem_latency=90ns&compute_rate=4G"

// TestKernelsHierarchy: on a machine with levels the page's number is the
// hierarchy model's, an estimate, with its terms per level; the paper's
// model is beside it, no bound there; the sweep passes through the number.
func TestKernelsHierarchy(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, levelsLink+"&kernel=heapsort&n=2^24")
	if len(p.linkMsgs) > 0 || len(p.s.Machine.Levels) != 3 {
		t.Fatalf("link problems %v; machine %+v", p.linkMsgs, p.s.Machine)
	}
	want, err := hier.Predict(p.s.Machine, "heapsort", p.s.Params)
	if err != nil {
		t.Fatal(err)
	}
	r := p.est
	if r.Model != estimate.Hier || r.Breakdown.Seconds != want.Seconds || r.Bound {
		t.Errorf("prediction %s %v s (bound %v); want the hierarchy model's %v s", r.Model, r.Breakdown.Seconds, r.Bound, want.Seconds)
	}
	if r.Other == nil || r.Other.Model != estimate.MBRAM || r.Other.Bound || !strings.Contains(r.Other.Note, "not on one with several cache levels") {
		t.Fatalf("other model: %+v", r.Other)
	}
	var html strings.Builder
	ui := p.renderResult()
	d := app.NewServerTester(ui)
	defer d.Close()
	app.PrintHTML(&html, ui)
	for _, w := range []string{`id="model-name"`, "Hierarchy model", `id="other-total"`, "MBRAM (the paper&#39;s model)", "L1 ← L2", "L3 ← memory", `id="estimate-kind"`} {
		if !strings.Contains(html.String(), w) {
			t.Errorf("the prediction lacks %s", w)
		}
	}
	if strings.Contains(html.String(), "at least") {
		t.Error(`a machine with several levels says "at least"`)
	}
	if strings.Contains(p.sweep.Option, "markArea") || p.sweep.Points == 0 {
		t.Errorf("sweep: %d points, shading %v", p.sweep.Points, strings.Contains(p.sweep.Option, "markArea"))
	}
	if !strings.Contains(p.share, "levels=L1:48KiB") {
		t.Errorf("share link %q lost the levels", p.share)
	}
	// The paper's machine: its model, "at least", nothing beside it.
	p = &kernelsPage{}
	open(t, p, "https://memwall.test/")
	if p.est.Model != estimate.MBRAM || !p.est.Bound {
		t.Errorf("paper's machine: %s, bound %v", p.est.Model, p.est.Bound)
	}
	html.Reset()
	ui = p.renderResult()
	d2 := app.NewServerTester(ui)
	defer d2.Close()
	app.PrintHTML(&html, ui)
	if !strings.Contains(html.String(), "at least") || strings.Contains(html.String(), "other-total") {
		t.Errorf("paper's machine: %s", html.String())
	}
}

// TestKernelsUncertainty: on a calibrated preset, which carries its
// calibration's spreads, the hierarchy prediction says how far they move
// it, the share estimate.Predict computes (hier.Sensitivity); on a
// custom machine without spreads it says nothing of the kind.
func TestKernelsUncertainty(t *testing.T) {
	p := &kernelsPage{}
	open(t, p, "https://memwall.test/#machine=xeon-kvm-2vcpu&kernel=heapsort&n=2^24")
	r, err := estimate.Predict(p.s.Machine, "heapsort", p.s.Params, estimate.Auto)
	if err != nil || r.Model != estimate.Hier || !(r.Uncertainty > 0) {
		t.Fatalf("prediction %+v, err %v; want the hierarchy model's with an uncertainty", r.Prediction, err)
	}
	var html strings.Builder
	app.PrintHTML(&html, p.renderResult())
	if want := fmt.Sprintf("± %.1f%% from the calibration", 100*r.Uncertainty); !strings.Contains(html.String(), want) {
		t.Errorf("the prediction lacks %q", want)
	}
	q := &kernelsPage{}
	open(t, q, levelsLink+"&kernel=heapsort&n=2^24")
	html.Reset()
	app.PrintHTML(&html, q.renderResult())
	if strings.Contains(html.String(), "from the calibration") {
		t.Error("a machine without spreads shows an uncertainty")
	}
}

// TestMenuLabelsDistinct: every preset's name reads differently in the
// machine menus once cut to a phone's width (menuLabel), so no two
// presets look alike there; three AMD guests named "AMD EPYC (family …)"
// all read "AMD EPYC (…)". And the cuts themselves, by hand.
func TestMenuLabelsDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, m := range presets.Machines() {
		l := menuLabel(m.Name)
		if other, ok := seen[l]; ok {
			t.Errorf("%s and %s both read %q in the menus", other, m.ID, l)
		}
		seen[l] = m.ID
		if n := len([]rune(l)); n > menuMax+4 {
			t.Errorf("%s: %q is %d characters", m.ID, l, n)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"Short name", "Short name"},
		{"AMD EPYC Zen 5 guest (family 26 model 2), KVM with 2 vCPUs", "AMD EPYC Zen 5 guest (…)"},
		{"A machine whose name runs on and on without a parenthesis", "A machine whose name runs on and…"},
	} {
		if got := menuLabel(c.name); got != c.want {
			t.Errorf("menuLabel(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
