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

// probeBrowser reads the clock's resolution (the smallest step of
// performance.now() over a few ticks) and what navigator says.
func probeBrowser() browserEnv {
	var env browserEnv
	w := app.Window()
	perf := w.Get("performance")
	best := 1.0
	for n := 0; n < 8; n++ {
		t0 := perf.Call("now").Float()
		t1 := t0
		for i := 0; i < 1_000_000 && t1 == t0; i++ {
			t1 = perf.Call("now").Float()
		}
		if d := (t1 - t0) / 1000; d > 0 && d < best {
			best = d
		}
	}
	env.tick = best
	env.isolated = w.Get("crossOriginIsolated").Truthy()
	nav := w.Get("navigator")
	env.agent = nav.Get("userAgent").String()
	if v := nav.Get("hardwareConcurrency"); v.Truthy() {
		env.cores = v.Int()
	}
	if v := nav.Get("deviceMemory"); v.Truthy() {
		env.memoryGB = v.Float()
	}
	return env
}

// probeBuffer finds a buffer the browser will give, from want down to
// measureBufferMin. When WebAssembly cannot grow its memory the Go runtime
// stops with a fatal error, which no recover catches; so the size is tried
// first as a JavaScript ArrayBuffer, whose failure is an exception.
func probeBuffer(want int64) (int64, string) {
	ab := app.Window().Get("ArrayBuffer")
	for size := want; size >= measureBufferMin; size /= 2 {
		if tryArrayBuffer(ab, size) {
			if size < want {
				return size, fmt.Sprintf("the browser refused %s; measuring with %s", units.FormatSize(want), units.FormatSize(size))
			}
			return size, ""
		}
	}
	return measureBufferMin, fmt.Sprintf("the browser refused even %s; trying it anyway", units.FormatSize(measureBufferMin))
}

func tryArrayBuffer(ab app.Value, size int64) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ab.New(float64(size))
	return true
}

// browserName shortens a user agent to the browser and its major version.
func browserName(agent string) string {
	for _, name := range []string{"Edg/", "OPR/", "Firefox/", "Chromium/", "Chrome/", "Version/"} {
		if i := strings.Index(agent, name); i >= 0 {
			rest := agent[i+len(name):]
			if j := strings.IndexAny(rest, ". "); j >= 0 {
				rest = rest[:j]
			}
			label := map[string]string{"Edg/": "Edge", "OPR/": "Opera", "Firefox/": "Firefox", "Chromium/": "Chromium", "Chrome/": "Chrome", "Version/": "Safari"}[name]
			if strings.Contains(agent, "HeadlessChrome/") && name == "Chrome/" {
				label = "Headless Chrome"
			}
			return label + " " + rest
		}
	}
	if i := strings.Index(agent, "HeadlessChrome/"); i >= 0 {
		rest := agent[i+len("HeadlessChrome/"):]
		if j := strings.IndexAny(rest, ". "); j >= 0 {
			rest = rest[:j]
		}
		return "Headless Chrome " + rest
	}
	return "this browser"
}

// curvesOption draws both curves against the working set on log axes: the
// dependent chase (latency) and the independent random reads (the
// throughput curve C is read from), with C marked once detected.
func curvesOption(lat []measure.LatencyPoint, tp []measure.ThroughputPoint, cache int64) string {
	latData := make([][2]float64, 0, len(lat))
	for _, p := range lat {
		latData = append(latData, [2]float64{float64(p.Size), p.Latency.Median})
	}
	tpData := make([][2]float64, 0, len(tp))
	for _, p := range tp {
		tpData = append(tpData, [2]float64{float64(p.Size), p.Access.Median})
	}
	tpSeries := map[string]any{"type": "line", "name": "independent random read (throughput)", "showSymbol": true, "symbolSize": 5, "data": tpData}
	if cache > 0 {
		tpSeries["markLine"] = map[string]any{
			"symbol": "none", "silent": true,
			"data":      []any{map[string]any{"xAxis": cache, "name": "C = " + units.FormatSize(cache)}},
			"lineStyle": map[string]any{"color": "#555", "type": "dashed"},
			"label":     map[string]any{"formatter": "{b}", "position": "insideEndTop", "fontSize": 12},
		}
	}
	// The size axis spans whole powers of two around the points, so its
	// labels (every 2^k, as 4Ki, 1Mi) fall on the ends too.
	xAxis := map[string]any{"type": "log", "logBase": 2, "name": "working set (bytes)", "nameLocation": "middle", "nameGap": 28,
		"axisLabel": map[string]any{"formatter": "@count"}}
	if len(lat) > 0 {
		lo, hi := lat[0].Size, lat[len(lat)-1].Size
		if len(tp) > 0 {
			hi = max(hi, tp[len(tp)-1].Size)
		}
		p := int64(1)
		for p*2 <= lo {
			p *= 2
		}
		q := int64(1)
		for q < hi {
			q *= 2
		}
		xAxis["min"], xAxis["max"] = p, q
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"top": 0, "left": 0},
		"grid":      map[string]any{"left": 8, "right": 32, "top": 48, "bottom": 8, "containLabel": true},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     xAxis,
		"yAxis":     map[string]any{"type": "log", "name": "time per access", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": []any{
			map[string]any{"type": "line", "name": "dependent load (latency)", "showSymbol": true, "symbolSize": 5, "data": latData},
			tpSeries,
		},
	})
}

func (c *measureDevice) Render() app.UI {
	v := c.run
	busy := c.running()
	mode := "standard"
	if c.short {
		mode = "short"
	}
	return app.Section().ID("measure").Class("panel").Body(
		app.H2().Text("Measure this device"),
		app.P().Text("Runs the calibration of memwall calibrate in this browser: the latency curve, the random-read throughput curve C is read from, the line size B, the sequential and random-access bandwidths β1 and β2, and the branch-misprediction penalty m (μ1 stays the MBRAM paper's 2). Keep the tab in front while it runs."),
		app.Div().Class("row actions").Body(
			selectField("measure-mode", "Run", mode, []option{
				{Value: "standard", Label: "standard: 256 MiB, 15 to 30 s"},
				{Value: "short", Label: "short: 64 MiB, a few seconds, rough"},
			}, c.onMode),
			app.Button().Type("button").ID("measure-start").Disabled(busy).Text("Measure this device").OnClick(c.onStart),
			app.Button().Type("button").ID("measure-cancel").Disabled(!busy).Text("Cancel").OnClick(c.onCancel),
		),
		c.renderRun(v),
		c.renderLimits(v),
	)
}

func (c *measureDevice) renderRun(v *measureRun) app.UI {
	if v == nil {
		return app.Div().ID("measure-run").DataSet("state", "idle")
	}
	pc := v.percent()
	var status string
	switch v.state {
	case stateRunning:
		status = fmt.Sprintf("Measuring… %d %%: %s.", pc, v.progress.Step)
	case stateDone:
		status = "Measured in " + units.FormatSecondsPrec(v.wall.Seconds(), 3) + "."
	case stateCancelled:
		status = fmt.Sprintf("Cancelled at %d %% (%s); nothing was saved.", pc, v.progress.Step)
	case stateFailed:
		status = "Stopped: " + v.err
	}
	body := []app.UI{
		app.P().ID("measure-status").Aria("live", "polite").Text(status),
		progressBar("measure-progress", "Measurement progress", pc, v.state == stateRunning),
	}
	if v.bufferNote != "" {
		body = append(body, app.P().Class("callout warn").Text(v.bufferNote))
	}
	if v.hidden {
		body = append(body, app.P().Class("callout warn").Text("The tab was in the background during the run: the browser slows a hidden tab's timers, so the run took longer, and samples taken then may be slower. Measure again with the tab in front."))
	}
	if len(v.lat)+len(v.tp) > 0 {
		body = append(body, &chart{ID: "measure-chart", Label: "Time per access against working-set size: dependent loads (latency) and independent random reads (throughput), measured in this browser", Option: v.chart, Height: 340})
	}
	if len(v.latSizes) > 0 && len(v.tpSizes) > 0 {
		body = append(body, c.renderSizes(v))
	}
	if v.state == stateDone && v.res != nil {
		body = append(body, c.renderResult(v))
	}
	return app.Div().ID("measure-run").DataSet("state", stateName(v.state)).Body(body...)
}

func (c *measureDevice) renderSizes(v *measureRun) app.UI {
	span := func(s []int64, per int, rounds int) string {
		return fmt.Sprintf("%d working sets from %s to %s (%d per doubling), %s each", len(s), units.FormatSize(s[0]), units.FormatSize(s[len(s)-1]), per, plural(int64(rounds), "round", "rounds"))
	}
	return app.P().ID("measure-sizes").Class("note").Text(fmt.Sprintf("Buffer %s. Latency curve: %s. Throughput curve: %s. Every timed run lasts at least %s; this browser's clock advances in steps of %s%s.",
		units.FormatSize(v.buffer), span(v.latSizes, 2, v.latRounds), span(v.tpSizes, 3, v.tpRounds),
		map[bool]string{true: "5 ms", false: "20 ms"}[v.short], units.FormatSeconds(v.env.tick),
		map[bool]string{true: " (cross-origin isolated)", false: ""}[v.env.isolated]))
}

func (c *measureDevice) renderResult(v *measureRun) app.UI {
	r := v.res
	m := r.Machine
	spread := func(k string) string {
		if s, ok := m.Spread[k]; ok && s > 0 {
			return fmt.Sprintf("%.0f %%", 100*s)
		}
		return ""
	}
	lineHow := "the step of the line-offset test"
	if r.Detected.Line == 0 {
		lineHow = "no clear step in the line-offset test: assumed"
	}
	cacheHow := fmt.Sprintf("the drop of the throughput curve (%s per read in cache, %s beyond)", units.FormatSeconds(r.Detected.InCache), units.FormatSeconds(r.Detected.Beyond))
	if r.Detected.Cache == 0 {
		cacheHow = "no drop on the throughput curve: assumed"
	}
	row := func(id, sym, val, how, sp string, num float64) app.UI {
		return app.Tr().Body(
			app.Th().Scope("row").Text(sym),
			app.Td().ID("measured-"+id).Class("num").DataSet("value", strconv.FormatFloat(num, 'g', -1, 64)).Text(val),
			app.Td().Class("num").Text(sp),
			app.Td().Text(how),
		)
	}
	return app.Div().ID("measure-result").Body(
		app.Div().Class("table-wrap").Body(app.Table().ID("measure-table").Body(
			app.Caption().Text("Measured in this browser"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Parameter"), app.Th().Scope("col").Text("Value"),
				app.Th().Scope("col").Text("Spread (IQR)"), app.Th().Scope("col").Text("From"),
			)),
			app.TBody().Body(
				row("beta1", "β1", units.FormatBandwidth(m.Beta1), "copy loop, one stream read and one written (read 1 stream "+m.Notes["beta1_read_1"]+", 2 streams "+m.Notes["beta1_read_2"]+")", spread("beta1"), m.Beta1),
				row("beta2", "β2", units.FormatBandwidth(m.Beta2), "B / time per independent random read over the whole buffer ("+m.Notes["random_access"]+")", spread("beta2"), m.Beta2),
				row("mu1", "μ1", strconv.Itoa(m.Mu1), "not measured: the MBRAM paper's value", "", float64(m.Mu1)),
				row("cache", "C", units.FormatSize(m.C), cacheHow, spread("cache"), float64(m.C)),
				row("line", "B", units.FormatSize(m.B), lineHow, "", float64(m.B)),
				row("mispredict", "m", units.FormatSeconds(m.M), "random against sorted branch loop", spread("mispredict"), m.M),
			),
		)),
		app.If(len(r.Warnings) > 0,
			app.Ul().Class("warnings").Body(app.Range(r.Warnings).Slice(func(i int) app.UI { return app.Li().Text(r.Warnings[i]) })),
		),
		app.If(v.err != "", app.P().ID("measure-error").Class("error").Aria("live", "assertive").Text(v.err)),
		app.Form().ID("measure-save-form").OnSubmit(c.onSave).Body(
			app.Div().Class("row actions").Body(
				textField{ID: "measure-name", Label: "Save as", Value: c.form.shown["name"], OnInput: c.onName, Size: 30}.UI(),
				app.Button().Type("submit").ID("measure-save").Disabled(v.saved != "").Text("Save to my machines"),
				app.Button().Type("button").ID("measure-edit").Text("Edit before saving").OnClick(c.onEdit),
			),
		),
		app.If(v.saved != "", app.P().ID("measure-saved").Class("notice").Aria("live", "polite").Text("Saved in My machines.")),
	)
}

// renderLimits says what a measurement in a browser can and cannot see,
// with this browser's own facts once a run has probed them.
func (c *measureDevice) renderLimits(v *measureRun) app.UI {
	clock := "performance.now(), the only clock a page has, is coarsened against timing attacks: to 100 µs in Chrome (5 µs when the page is cross-origin isolated), to 1 ms or more elsewhere. Every timed run is therefore made to last 20 ms or more."
	if v != nil {
		iso := "not cross-origin isolated"
		if v.env.isolated {
			iso = "cross-origin isolated"
		}
		clock = fmt.Sprintf("performance.now(), the only clock a page has, is coarsened against timing attacks; here it advances in steps of %s (this page is %s). Every timed run is therefore made to last %s or more.", units.FormatSeconds(v.env.tick), iso, map[bool]string{true: "5 ms", false: "20 ms"}[v.short])
	}
	items := []string{
		clock,
		"No cache query: a page cannot read the CPU's cache sizes or line size (no CPUID, no /sys). C comes from the random-read throughput curve alone, B from the step in the line-offset test (when there is none, 64 B is assumed).",
		"Memory: WebAssembly has a 32-bit address space (4 GiB at most, shared with the app), so the buffer is at most 256 MiB, and smaller when the browser refuses; a curve that must pass the last cache by a margin cannot see a cache of more than about 32 MiB. The page keeps the memory until it is reloaded.",
		"No huge pages: WebAssembly cannot ask for them, so random reads over a large buffer also pay TLB misses on ordinary pages.",
		"Overhead: Go compiled to WebAssembly runs on one thread, without SIMD, with its bounds checks, through the browser's JIT; loops that compute (address generation, the branch loop) cost more than natively.",
		"A tab in the background has its timers slowed to once a second or less: the run then takes far longer, and the browser may slow the tab further.",
		"So the numbers are lower bounds on what the hardware can do (and m can come out higher than the pipeline alone would give); memwall calibrate on the command line sees more.",
	}
	return app.Details().ID("measure-limits").Body(
		app.Summary().Text("What a browser measurement can and cannot see"),
		app.Ul().Body(app.Range(items).Slice(func(i int) app.UI { return app.Li().Text(items[i]) })),
	)
}
