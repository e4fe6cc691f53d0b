package app

// This file imports memwall/measure, which the project's layout table does
// not list among app/'s imports (engine, presets, go-app). It is the better
// way: measure imports only engine, compiles for GOOS=js, and is the code
// `memwall calibrate` runs, so the browser measures with the same kernels
// and the same cache detection as the native calibration. Copying the
// benchmarks into app/ would give two versions to keep in step.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/measure"
)

// How a measurement shares the browser: a measurement is a job (see
// job.go) whose goroutine runs one step of measure.Steps (a sample of a few
// tens of milliseconds), hands a snapshot to the UI goroutine and sleeps a
// millisecond, which in WebAssembly parks it on a setTimeout, so the page
// paints and takes a click on Cancel between samples. A tight loop would
// never let go.
const (
	measureYield      = time.Millisecond
	measureChartEvery = 400 * time.Millisecond
)

// Buffer sizes: the standard run asks for 256 MiB and halves down to 16 MiB
// while the browser refuses; the short run uses 64 MiB (enough for the
// random reads to be mostly misses on this generation of caches, so β2
// stays below β1).
const (
	measureBufferMax   = 256 << 20
	measureBufferMin   = 16 << 20
	measureBufferShort = 64 << 20
)

// measureDevice is the "Measure this device" panel of the Machines page:
// it runs the calibration microbenchmarks in this browser with progress and
// Cancel, draws the two curves, and saves the result as one of the user's
// machines. The fragment #measure=short on /machines preselects the short
// run (a few seconds; the browser tests use it).
type measureDevice struct {
	app.Compo

	// page is the Machines page: saving puts the machine in its library.
	// Unexported, so go-app never copies it over on a re-render.
	page *machinesPage

	short bool
	run   *measureRun
	job   job
	form  formText // the name to save under
}

// measureRun is what the panel shows of one measurement.
type measureRun struct {
	state      runState
	short      bool
	env        browserEnv
	buffer     int64
	bufferNote string
	progress   measure.Progress
	lat        []measure.LatencyPoint
	tp         []measure.ThroughputPoint
	latSizes   []int64
	tpSizes    []int64
	latRounds  int
	tpRounds   int
	chart      string
	chartAt    time.Time
	res        *measure.Result
	err        string
	wall       time.Duration
	hidden     bool // the tab was in the background at some step
	saved      string
}

// browserEnv is what the page could learn about its clock and machine.
type browserEnv struct {
	tick     float64 // seconds: the smallest step of performance.now()
	isolated bool    // crossOriginIsolated: finer timers
	agent    string
	cores    int
	memoryGB float64 // navigator.deviceMemory, rounded by the browser; 0 when absent
}

func (c *measureDevice) OnMount(ctx app.Context) {
	if u := ctx.Page().URL(); u != nil && strings.Contains(u.Fragment, "measure=short") {
		c.short = true
	}
}

// OnDismount stops a run when the user leaves the page: nobody would see
// it, and it would hold the page's only thread.
func (c *measureDevice) OnDismount() { c.stop() }

func (c *measureDevice) stop() { c.job.cancelRun() }

func (c *measureDevice) running() bool { return c.run != nil && c.run.state == stateRunning }

func (c *measureDevice) onMode(ctx app.Context, e app.Event) {
	c.short = inputValue(ctx) == "short"
}

func (c *measureDevice) onCancel(ctx app.Context, e app.Event) { c.stop() }

// onStart probes the browser, then measures on a new goroutine.
func (c *measureDevice) onStart(ctx app.Context, e app.Event) {
	if c.running() || !app.IsClient {
		return
	}
	c.stop()
	v := &measureRun{state: stateRunning, short: c.short, env: probeBrowser()}
	want := int64(measureBufferMax)
	if c.short {
		want = measureBufferShort
	}
	v.buffer, v.bufferNote = probeBuffer(want)
	v.progress = measure.Progress{Step: "allocating " + units.FormatSize(v.buffer)}
	c.run = v
	opts := measure.StepOptions{Buffer: v.buffer, Short: v.short}
	var steps *measure.Steps
	var res measure.Result
	var resErr error
	var wall time.Duration
	hidden := false
	c.job.start(ctx, func(rctx context.Context, t *jobTask) error {
		// Let the page show the run before the allocation holds it.
		time.Sleep(20 * time.Millisecond)
		started := time.Now()
		steps = measure.NewSteps(opts)
		latR, tpR := steps.Rounds()
		ctx.Dispatch(func(ctx app.Context) {
			v.latSizes, v.tpSizes, v.latRounds, v.tpRounds = steps.LatencySizes(), steps.ThroughputSizes(), latR, tpR
		})
		var err error
		for {
			var p measure.Progress
			var more bool
			p, more, err = steps.Next(rctx)
			if err != nil || !more {
				break
			}
			if app.Window().Get("document").Get("hidden").Truthy() {
				hidden = true
			}
			t.report(func(time.Time) func(app.Context) {
				lat, tp := steps.Curves()
				wall := time.Since(started)
				return func(ctx app.Context) {
					if v.state != stateRunning {
						return
					}
					v.progress, v.lat, v.tp, v.wall, v.hidden = p, lat, tp, wall, hidden
					if now := time.Now(); now.Sub(v.chartAt) >= measureChartEvery {
						v.chartAt = now
						v.chart = curvesOption(lat, tp, 0)
					}
				}
			}, time.Now())
			time.Sleep(measureYield)
		}
		if err == nil {
			res, resErr = steps.Result()
		}
		wall = time.Since(started)
		return err
	}, func(ctx app.Context, err error, t *jobTask) {
		lat, tp := steps.Curves()
		v.wall, v.hidden, v.lat, v.tp = wall, v.hidden || hidden, lat, tp
		v.progress = steps.Progress()
		switch {
		case errors.Is(err, context.Canceled):
			v.state = stateCancelled
		case err != nil:
			v.state, v.err = stateFailed, err.Error()
		default:
			v.state = stateDone
			v.res = &res
			if resErr != nil {
				v.err = resErr.Error() + " Open it in the editor to look at the numbers, or measure again."
			}
			c.form = formText{prefix: "measure-"}
			c.form.set(ctx, map[string]string{"name": "This device (" + browserName(v.env.agent) + ")"})
		}
		v.chart = curvesOption(v.lat, v.tp, v.cache())
	})
}

// cache is the detected C, 0 when the curve showed none.
func (v *measureRun) cache() int64 {
	if v.res == nil {
		return 0
	}
	return v.res.Detected.Cache
}

// percent is the progress, 0 to 100.
func (v *measureRun) percent() int {
	return jobPercent(v.state, int64(v.progress.Done), int64(v.progress.Total))
}

// machineFor is the measured machine as it will be saved: the user's name,
// and what the browser said about itself in the notes.
func (c *measureDevice) machineFor(v *measureRun) machine.Machine {
	m := v.res.Machine
	m.Name = strings.TrimSpace(c.form.text["name"])
	if m.Name == "" {
		m.Name = "This device"
	}
	m.Source = "measured in a browser by memwall (" + m.Notes["mode"] + ")"
	m.Description = fmt.Sprintf("Measured in %s on %s with a %s buffer; browser numbers are lower bounds on what the hardware can do.", browserName(v.env.agent), m.Notes["date"], units.FormatSize(v.buffer))
	notes := make(map[string]string, len(m.Notes)+6)
	for k, val := range m.Notes {
		notes[k] = val
	}
	notes["browser"] = v.env.agent
	notes["timer_step"] = units.FormatSeconds(v.env.tick)
	notes["cross_origin_isolated"] = strconv.FormatBool(v.env.isolated)
	if v.env.cores > 0 {
		notes["logical_cores"] = strconv.Itoa(v.env.cores)
	}
	if v.env.memoryGB > 0 {
		notes["device_memory"] = strconv.FormatFloat(v.env.memoryGB, 'g', -1, 64) + " GB (as the browser rounds it)"
	}
	if v.hidden {
		notes["background"] = "the tab was in the background during part of the run"
	}
	m.Notes = notes
	return m
}

func (c *measureDevice) onName(ctx app.Context, e app.Event) { c.form.typed("name", inputValue(ctx)) }

// onSave puts the machine in the user's library, through the Machines
// page so its table shows it at once.
func (c *measureDevice) onSave(ctx app.Context, e app.Event) {
	e.PreventDefault()
	v := c.run
	if v == nil || v.res == nil || c.page == nil {
		return
	}
	m := c.machineFor(v)
	if err := m.Validate(); err != nil {
		v.err = "Not saved: " + err.Error()
		return
	}
	p := c.page
	ctx.Emit(func() {
		m = p.lib.put(m)
		if err := p.lib.save(ctx); err != nil {
			p.notice = err.Error()
			return
		}
		p.notice = "Saved " + m.Name + " in this browser."
		v.saved = m.ID
	})
	ctx.ScrollTo("user-machines")
}

// onEdit opens the Machines page's editor on the measured machine, for a
// look at the numbers (or a fix) before saving.
func (c *measureDevice) onEdit(ctx app.Context, e app.Event) {
	v := c.run
	if v == nil || v.res == nil || c.page == nil {
		return
	}
	m := c.machineFor(v)
	p := c.page
	ctx.Emit(func() {
		p.openEditor(ctx, "", m)
		p.notice = "Measured in this browser; check the numbers, name the machine and save it."
	})
	ctx.ScrollTo("editor")
}
