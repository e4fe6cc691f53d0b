package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/lang"
	"memwall/engine/machine"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// mustPredictor reads a predictor the scenario has validated.
func mustPredictor(s string) sim.Predictor {
	p, _ := sim.ParsePredictor(s)
	return p
}

// programView is the running or last job of the Program page: a run, a
// prediction at a size, or an A/B comparison.
type programView struct {
	kind  string // "run", "predict" or "compare"
	state runState
	what  string
	err   string
	pos   *lang.Pos // where a program's run-time error is

	steps, accesses int64
	frac            float64 // progress of a prediction or comparison, 0..1
	wall            time.Duration

	source string          // the program that ran, for the profile
	mach   machine.Machine // the machine it ran on
	res    *lang.Result
	pred   *lang.Prediction
	closed *float64
	cmp    *lang.Comparison
	chart  string
}

// tick runs on the job's goroutine: it reports now and then and lets the
// browser have a turn (see jobTask.tick).
func (p *programPage) tick(t *jobTask, pr lang.Progress, frac float64) {
	t.tick(func(now time.Time) func(app.Context) {
		wall := now.Sub(t.started)
		return func(ctx app.Context) {
			if p.view != nil && p.view.state == stateRunning {
				p.view.steps, p.view.accesses, p.view.frac, p.view.wall = pr.Steps, pr.Accesses, frac, wall
			}
		}
	})
}

// begin checks the inputs and prepares a job; nil when an input is bad.
func (p *programPage) begin(kind string) (*programView, lang.Options, bool) {
	if p.prog == nil {
		return nil, lang.Options{}, false
	}
	if !p.params() {
		return nil, lang.Options{}, false
	}
	_, opt, err := p.s.Options()
	if err != nil {
		p.notice = err.Error()
		return nil, opt, false
	}
	p.stop()
	v := &programView{kind: kind, state: stateRunning, source: p.s.Source}
	p.view = v
	return v, opt, true
}

// async runs work as the page's job, and hands its end to finish on the
// UI goroutine.
func (p *programPage) async(ctx app.Context, work func(rctx context.Context, t *jobTask) error, finish func(err error)) {
	p.job.start(ctx, work, func(ctx app.Context, err error, t *jobTask) {
		p.view.wall = t.wall
		finish(err)
		p.view.state = endState(p.view, err)
	})
}

func endState(v *programView, err error) runState {
	var le *lang.Error
	switch {
	case err == nil:
		return stateDone
	case errors.Is(err, context.Canceled):
		return stateCancelled
	case errors.As(err, &le):
		v.err, v.pos = le.Error(), &le.Pos
	default:
		v.err = err.Error()
	}
	return stateFailed
}

// startRun simulates the program at its params.
func (p *programPage) startRun(ctx app.Context) {
	v, opt, ok := p.begin("run")
	if !ok {
		return
	}
	prog, m, pred := p.prog, p.s.Machine, mustPredictor(p.s.Predictor)
	v.what, v.mach = fmt.Sprintf("the program on %s", m.Name), m
	kernel := p.s.Kernel
	var res *lang.Result
	p.async(ctx, func(rctx context.Context, t *jobTask) error {
		opt.Progress = func(pr lang.Progress) { p.tick(t, pr, 0) }
		r, err := prog.Run(rctx, m, pred, opt)
		res = r
		return err
	}, func(err error) {
		v.res = res
		if res != nil {
			v.steps, v.accesses = res.Steps, res.Counts.Accesses
			v.closed = closedForm(kernel, m, res.Params, 0)
		}
	})
}

// startPredict extrapolates the program to the size in the "at" field.
func (p *programPage) startPredict(ctx app.Context) {
	at, err := units.ParseCount(p.form.text["at"])
	if err != nil || at < 1 {
		p.errs["at"] = "the size to predict: " + errOr(err, "must be at least 1")
		return
	}
	delete(p.errs, "at")
	p.s.At = at
	v, opt, ok := p.begin("predict")
	if !ok {
		return
	}
	prog, m, pred := p.prog, p.s.Machine, mustPredictor(p.s.Predictor)
	size := prog.Params[0].Name
	v.what = fmt.Sprintf("the program at %s = %s on %s", size, units.FormatCount(at), m.Name)
	kernel := p.s.Kernel
	var out *lang.Prediction
	p.async(ctx, func(rctx context.Context, t *jobTask) error {
		var frac float64
		opt.Progress = func(pr lang.Progress) { p.tick(t, pr, frac) }
		r, err := prog.Predict(rctx, m, pred, lang.PredictOptions{Options: opt, At: at, Budget: browserBudget,
			Step: func(pt lang.Point, used float64) { frac = min(used, 1) }})
		out = r
		return err
	}, func(err error) {
		v.pred = out
		if out != nil {
			v.res = out.Last
			params := map[string]int64{}
			if out.Last != nil {
				params = out.Last.Params
			}
			v.closed = closedForm(kernel, m, params, at)
			v.chart = predictionChart(out, v.closed)
		}
	})
}

// browserBudget is the accesses a prediction simulates in the browser:
// some seconds.
const browserBudget = 60_000_000

// startCompare runs both programs over the sizes of the from and to fields.
func (p *programPage) startCompare(ctx app.Context) {
	if p.cmpProg == nil {
		p.notice = "Program B does not compile."
		return
	}
	lo, err1 := units.ParseCount(p.form.text["from"])
	hi, err2 := units.ParseCount(p.form.text["to"])
	switch {
	case err1 != nil:
		p.errs["from"] = err1.Error()
		return
	case err2 != nil:
		p.errs["to"] = err2.Error()
		return
	case lo < 1 || hi < lo:
		p.errs["to"] = fmt.Sprintf("want 1 <= from <= to; got %d and %d", lo, hi)
		return
	}
	delete(p.errs, "from")
	delete(p.errs, "to")
	v, opt, ok := p.begin("compare")
	if !ok {
		return
	}
	a, b, m, pred := p.prog, p.cmpProg, p.s.Machine, mustPredictor(p.s.Predictor)
	v.what = fmt.Sprintf("programs A and B from %s to %s on %s", units.FormatCount(lo), units.FormatCount(hi), m.Name)
	sizes := lang.Sizes(lo, hi, 2)
	var out *lang.Comparison
	p.async(ctx, func(rctx context.Context, t *jobTask) error {
		var frac float64
		opt.Progress = func(pr lang.Progress) { p.tick(t, pr, frac) }
		r, err := lang.Compare(rctx, a, b, "", sizes, m, pred, opt, func(done, total int) { frac = float64(done) / float64(total) })
		out = r
		return err
	}, func(err error) {
		v.cmp = out
		if out != nil {
			v.chart = compareChart(out)
		}
	})
}

// stop cancels the current job.
func (p *programPage) stop() {
	p.job.stop()
	if p.view != nil && p.view.state == stateRunning {
		p.view.state = stateCancelled
	}
}

func (p *programPage) onRun(ctx app.Context, e app.Event)     { p.startRun(ctx) }
func (p *programPage) onPredict(ctx app.Context, e app.Event) { p.startPredict(ctx) }
func (p *programPage) onCompare(ctx app.Context, e app.Event) { p.startCompare(ctx) }
func (p *programPage) onCancel(ctx app.Context, e app.Event)  { p.stop() }

// closedForm is the built-in kernel's closed form at the run's size, when
// the program is one of them.
func closedForm(kernel string, m machine.Machine, params map[string]int64, at int64) *float64 {
	if kernel == "" {
		return nil
	}
	n := at
	if n == 0 {
		n = params["N"]
	}
	v, ok := lang.ClosedForm(m, kernel, n, params)
	if !ok {
		return nil
	}
	return &v
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}
