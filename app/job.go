package app

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A page's long work (a simulation, a program's run, a term search, a
// measurement) runs as a job: on a goroutine of its own, under a context
// that Cancel cancels, reporting its progress to the page.
//
// How a job shares the browser. WebAssembly Go has one thread: while the
// job's goroutine runs, neither the UI goroutine nor the browser's event
// loop does. The work calls tick between slices of itself; once yieldEvery
// of work has passed, tick hands a snapshot to the UI goroutine
// (ctx.Dispatch) now and then, and blocks until the browser has had a turn
// (see yielder), so the page renders and takes clicks (Cancel) before the
// work goes on.
const (
	yieldEvery = 40 * time.Millisecond
	// reportEvery spaces the progress reports: each one renders the page,
	// which costs more than a yield.
	reportEvery = 200 * time.Millisecond
)

// runState is where a job is.
type runState int

const (
	stateRunning runState = iota
	stateDone
	stateCancelled
	stateFailed
)

// stateName is a state as the pages write it into data-state, for the
// browser tests.
func stateName(s runState) string {
	return [...]string{"running", "done", "cancelled", "failed"}[s]
}

// job runs a page's work in the background, one piece of work at a time.
// It lives on the UI goroutine; the work's side of it is a jobTask.
type job struct {
	// every spaces the progress reports (reportEvery when 0); the first
	// comes at the first turn given to the browser, or after every when
	// late is set.
	every time.Duration
	late  bool

	id     int                // the current work; reports and ends of older work are dropped
	cancel context.CancelFunc // cancels the current work; nil when none runs
}

// running reports whether work runs (Cancel may have been asked for).
func (j *job) running() bool { return j.cancel != nil }

// cancelRun asks the current work to stop. Its end is still reported: done
// gets the work's error, context.Canceled when it stopped early.
func (j *job) cancelRun() {
	if j.cancel != nil {
		j.cancel()
	}
}

// stop cancels the current work and drops its reports and its end.
func (j *job) stop() {
	if j.cancel != nil {
		j.cancel()
		j.cancel = nil
	}
	j.id++
}

// start stops the current work and runs work on a new goroutine under a
// fresh context. When it returns, done runs on the UI goroutine with its
// error and its task (for the wall time), unless stop or another start
// came first.
func (j *job) start(ctx app.Context, work func(rctx context.Context, t *jobTask) error, done func(ctx app.Context, err error, t *jobTask)) {
	j.stop()
	j.id++
	rctx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	every := j.every
	if every <= 0 {
		every = reportEvery
	}
	t := &jobTask{ctx: ctx, job: j, id: j.id, every: every}
	late := j.late
	ctx.Async(func() {
		t.yield = newYielder()
		defer t.yield.release()
		t.started = time.Now()
		t.yielded = t.started
		if late {
			t.sent = t.started
		}
		err := work(rctx, t)
		t.wall = time.Since(t.started)
		ctx.Dispatch(func(ctx app.Context) {
			if !t.current() {
				return
			}
			j.cancel = nil
			done(ctx, err, t)
		})
	})
}

// jobTask is the work's side of a job. Only the work's goroutine touches
// it, except pending; the UI goroutine reads started, idle and wall once
// the work has ended.
type jobTask struct {
	ctx   app.Context
	job   *job
	id    int
	every time.Duration
	yield *yielder

	started time.Time
	yielded time.Time
	sent    time.Time
	idle    time.Duration // given to the browser in turns
	wall    time.Duration // the whole work, once it has ended
	// pending is set while a report waits for the UI goroutine, so a slow
	// page gets one report at a time, not a queue of them.
	pending atomic.Bool
}

// current reports whether the task is still the job's; UI goroutine only.
func (t *jobTask) current() bool { return t.id == t.job.id }

// tick is called by the work between slices of itself. Once yieldEvery
// has passed since the browser last had a turn, it reports (when a report
// is due, see report) and gives the browser a turn.
func (t *jobTask) tick(snap func(now time.Time) func(app.Context)) {
	now := time.Now()
	if now.Sub(t.yielded) < yieldEvery {
		return
	}
	if now.Sub(t.sent) >= t.every && t.report(snap, now) {
		t.sent = now
	}
	t.yield.yield()
	t.yielded = time.Now()
	t.idle += t.yielded.Sub(now)
}

// report takes a snapshot on the work's goroutine and hands what it
// returns to the UI goroutine, unless the last report still waits there;
// it says whether it took one. What snap returns (nil for nothing) is
// dropped when the work has been stopped meanwhile.
func (t *jobTask) report(snap func(now time.Time) func(app.Context), now time.Time) bool {
	if t.pending.Swap(true) {
		return false
	}
	apply := snap(now)
	if apply == nil {
		t.pending.Store(false)
		return true
	}
	t.ctx.Dispatch(func(ctx app.Context) {
		t.pending.Store(false)
		if t.current() {
			apply(ctx)
		}
	})
	return true
}

// yielder gives the browser a turn: the job's goroutine posts a message to
// itself through a MessageChannel and blocks until it arrives. With every
// goroutine blocked, Go returns to the event loop, which runs the tasks
// queued before the message (input, rendering) and then the message.
// time.Sleep would do the same through setTimeout, but Chromium stretches
// a setTimeout of a page that keeps setting them to 4 ms and more, which on
// a loaded machine cost a third of the run. Outside a browser goroutines
// run in parallel and no turn is needed.
type yielder struct {
	port app.Value
	fn   app.Func
	ch   chan struct{}
}

func newYielder() *yielder {
	if !app.IsClient {
		return nil
	}
	mc := app.Window().Get("MessageChannel").New()
	y := &yielder{port: mc.Get("port2"), ch: make(chan struct{}, 1)}
	y.fn = app.FuncOf(func(app.Value, []app.Value) any {
		select {
		case y.ch <- struct{}{}:
		default:
		}
		return nil
	})
	mc.Get("port1").Set("onmessage", y.fn)
	return y
}

func (y *yielder) yield() {
	if y == nil {
		return
	}
	y.port.Call("postMessage", 0)
	<-y.ch
}

func (y *yielder) release() {
	if y == nil {
		return
	}
	y.port.Call("close")
	y.fn.Release()
}

// jobPercent is a job's progress, 0 to 100: done of total, never 100
// before the end (totals are estimates that a job may pass).
func jobPercent(state runState, done, total int64) int {
	if state == stateDone {
		return 100
	}
	if total <= 0 {
		return 0
	}
	pc := int(100 * float64(done) / float64(total))
	return min(max(pc, 0), 99)
}

// progressBar is an ARIA progress bar drawn with inline styles (the
// stylesheet has no progress bar of its own), grey once the job is over.
func progressBar(id, label string, pc int, active bool) app.UI {
	color := "var(--accent)"
	if !active {
		color = "var(--muted)"
	}
	return app.Div().ID(id).Attr("role", "progressbar").
		Aria("label", label).Aria("valuemin", 0).Aria("valuemax", 100).Aria("valuenow", pc).
		Style("height", "0.9rem").Style("border", "1px solid var(--line)").Style("border-radius", "4px").Style("background", "#eee").Style("overflow", "hidden").Style("margin", "0.4rem 0").
		Body(app.Div().Style("width", strconv.Itoa(pc)+"%").Style("height", "100%").Style("background", color))
}
