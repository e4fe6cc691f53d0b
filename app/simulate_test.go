package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/kernels"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/presets"
)

// A small link runs by itself, and the page shows what the engine gives
// for the same inputs.
func TestSimulateSmallLinkRuns(t *testing.T) {
	p := &simulatePage{}
	open(t, p, "https://memwall.test/simulate#machine=p4-2.66-ddr266&kernel=mergesort&n=2^12&w=8&seed=7&pred=2bit")
	if p.view == nil || p.view.state != stateDone {
		t.Fatalf("the run did not finish: %+v", p.view)
	}
	m, _ := presets.Machine("p4-2.66-ddr266")
	params := mbram.Params{N: 1 << 12, W: 8, Buckets: 64}
	want, err := kernels.Simulate(context.Background(), m, sim.TwoBit, "mergesort", params, kernels.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if p.view.res.Counts != want.Counts || p.view.res.Seconds != want.Seconds {
		t.Errorf("page %+v %v, engine %+v %v", p.view.res.Counts, p.view.res.Seconds, want.Counts, want.Seconds)
	}
	closed, _ := mbram.Predict(m, "mergesort", params)
	if p.view.closed == nil || p.view.closed.Seconds != closed.Seconds {
		t.Errorf("closed form %+v, want %v", p.view.closed, closed.Seconds)
	}
	for _, k := range []string{"seed=7", "pred=2bit", "kernel=mergesort", "n=4Ki", "w=8"} {
		if !strings.Contains(p.share, k) {
			t.Errorf("share link %q lacks %q", p.share, k)
		}
	}
	var opt map[string]any
	if err := json.Unmarshal([]byte(p.view.chart), &opt); err != nil {
		t.Errorf("cost chart option is not JSON: %v", err)
	}
}

// A large link fills the form and waits for Run.
func TestSimulateLargeLinkWaits(t *testing.T) {
	p := &simulatePage{}
	open(t, p, "https://memwall.test/simulate#machine=p4-1.7-pc133&kernel=quicksort&n=8Mi")
	if p.view != nil {
		t.Errorf("a run of 8Mi started by itself")
	}
	if p.s.Params.N != 8<<20 || p.form.text["n"] != "8Mi" || p.seed != 1 || p.pred != sim.Majority {
		t.Errorf("form: n %d %q, seed %d, pred %v", p.s.Params.N, p.form.text["n"], p.seed, p.pred)
	}
}

func TestSimulateFieldMessages(t *testing.T) {
	p := &simulatePage{}
	open(t, p, "https://memwall.test/simulate")
	before := p.s.Params
	for _, c := range []struct{ key, text, msg string }{
		{"n", "lots", "number"},
		{"n", "2^27", "2^26"},
		{"n", "0", "from 1"},
		{"w", "3", "power of two"},
		{"w", "256", "no larger than the line"},
		{"seed", "-1", "seed"},
		{"seed", "1e3", "whole number"},
	} {
		p.form.set(nil, map[string]string{"n": "1Mi", "w": "4", "b": "64", "seed": "1"})
		p.form.typed(c.key, c.text)
		if p.applyText() || !strings.Contains(p.errs[c.key], c.msg) {
			t.Errorf("%s=%q: errors %v; want one containing %q", c.key, c.text, p.errs, c.msg)
		}
		if p.s.Params != before {
			t.Errorf("%s=%q changed the workload", c.key, c.text)
		}
	}
}

// Cancel stops a run; the page keeps what was simulated and runs again.
func TestSimulateCancel(t *testing.T) {
	p := &simulatePage{}
	d := open(t, p, "https://memwall.test/simulate#kernel=quicksort&n=2^22")
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: p, Function: func(ctx app.Context) {
		p.start(ctx)
		p.onCancel(ctx, app.Event{})
	}})
	d.Consume()
	if p.view == nil || p.view.state != stateCancelled || p.job.running() {
		t.Fatalf("after Cancel: %+v", p.view)
	}
	if p.view.res.Counts.Accesses >= 1<<22 {
		t.Errorf("the cancelled run went on: %d accesses", p.view.res.Counts.Accesses)
	}
	p.form.typed("n", "2^10")
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: p, Function: func(ctx app.Context) { p.start(ctx) }})
	d.Consume()
	if p.view.state != stateDone || p.view.res.Counts.Accesses == 0 {
		t.Errorf("the run after Cancel: %+v", p.view)
	}
}

func TestSimulateSamples(t *testing.T) {
	var c samples
	cfg := sim.Config{Line: 64, Lines: 16, Mu1: 2, Beta1: 1e9, Beta2: 1e8, Mispredict: 1e-9}
	for i := int64(1); i <= 10*maxSamples; i++ {
		c.add(cfg, sim.Counts{Accesses: i, Misses: i, RandTransfers: i})
	}
	if len(c.pts) >= maxSamples || len(c.pts) < maxSamples/4 {
		t.Errorf("%d samples kept", len(c.pts))
	}
	for i := 1; i < len(c.pts); i++ {
		if c.pts[i].accesses <= c.pts[i-1].accesses {
			t.Fatalf("samples out of order at %d", i)
		}
	}
	marks := phaseMarks(sim.Result{Counts: sim.Counts{Accesses: 100}, Phases: []sim.Phase{
		{Name: "a", Counts: sim.Counts{Accesses: 60}}, {Name: "b", Counts: sim.Counts{Accesses: 30}}}})
	if len(marks) != 2 || marks[0].accesses != 10 || marks[1].accesses != 70 {
		t.Errorf("phase marks %+v", marks)
	}
	if got := groupDigits(12345678); got != "12 345 678" {
		t.Errorf("groupDigits: %q", got)
	}
}
