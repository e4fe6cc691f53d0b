package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/kernels"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/engine/trace"
	"memwall/engine/units"
)

// How a run shares the browser: a run is a job (see job.go). Every
// simSlice accesses the simulator calls back, and the callback ticks the
// job, which now and then hands a snapshot to the page and gives the
// browser a turn.
const (
	simSlice = 1 << 16 // about a millisecond of simulation in a browser
	// chartEvery spaces the redraws of the cost chart during a run: each
	// one marshals and draws up to maxSamples points.
	chartEvery = 500 * time.Millisecond
	maxSamples = 1000
)

// maxTrace is the largest trace file the page replays. The file is read
// in chunks while it is simulated, so it bounds time, not memory.
const maxTrace = trace.DefaultSize

// simView is what the page shows of a run: the inputs it was started with,
// its progress, and its results so far.
type simView struct {
	state     runState
	what      string // the run in words
	isTrace   bool
	cfg       sim.Config
	unit      string // what done and total count
	done      int64
	total     int64
	counts    sim.Counts
	res       sim.Result
	closed    *mbram.Breakdown
	closedErr string
	wall      time.Duration
	idle      time.Duration // the part of wall given to the browser
	err       string
	stats     trace.Stats
	samples   []costSample
	phases    []phaseMark
	chart     string
	chartAt   time.Time
}

// costSample is the simulated time so far, by term, after some accesses.
type costSample struct {
	accesses        int64
	seq, rand, misp float64
}

type phaseMark struct {
	name     string
	accesses int64 // accesses before the phase started
}

// percent is the progress, 0 to 100.
func (v *simView) percent() int { return jobPercent(v.state, v.done, v.total) }

// rate is simulated accesses per second of wall time.
func (v *simView) rate() float64 {
	if v.wall <= 0 {
		return 0
	}
	return float64(v.counts.Accesses) / v.wall.Seconds()
}

// idleShare is the part of the wall time the run gave to the browser.
func (v *simView) idleShare() float64 {
	if v.wall <= 0 {
		return 0
	}
	return v.idle.Seconds() / v.wall.Seconds()
}

// simJob is the state of the simulating goroutine. Only that goroutine
// touches it until the run has ended.
type simJob struct {
	s       *sim.Sim
	cfg     sim.Config
	samples samples
}

// samples keeps at most maxSamples points of a cost series: when full it
// drops every other point and keeps one in twice as many from then on.
type samples struct {
	pts    []costSample
	stride int
	skip   int
}

func (c *samples) add(cfg sim.Config, n sim.Counts) {
	if c.stride == 0 {
		c.stride = 1
	}
	if c.skip++; c.skip < c.stride {
		return
	}
	c.skip = 0
	c.pts = append(c.pts, sampleOf(cfg, n))
	if len(c.pts) >= maxSamples {
		half := c.pts[:0]
		for i := 1; i < len(c.pts); i += 2 {
			half = append(half, c.pts[i])
		}
		c.pts = half
		c.stride *= 2
	}
}

func sampleOf(cfg sim.Config, n sim.Counts) costSample {
	t := cfg.Terms(n) // sequential, random, branches
	return costSample{accesses: n.Accesses, seq: t[0].Seconds, rand: t[1].Seconds, misp: t[2].Seconds}
}

// snapshot is what a progress report carries to the UI goroutine.
type snapshot struct {
	done, total int64
	counts      sim.Counts
	wall, idle  time.Duration
	samples     []costSample
}

// start checks the inputs and starts a run on a new goroutine.
func (p *simulatePage) start(ctx app.Context) {
	v := &simView{state: stateRunning, isTrace: p.source == sourceTrace}
	if v.isTrace {
		if !p.file.ok() {
			p.file.err = "Choose a trace file first."
			return
		}
		v.what = fmt.Sprintf("trace %s (%s) on %s", p.file.name, formatName(p.format), p.s.Machine.Name)
		v.unit = "bytes"
		v.total = p.file.size
	} else {
		if !p.applyText() {
			return
		}
		k, _ := kernels.Lookup(p.s.Kernel)
		v.what = fmt.Sprintf("%s, n = %s, w = %d B", k.Name, units.FormatCount(p.s.Params.N), p.s.Params.W)
		if hasParam(mustKernel(p.s.Kernel), "b") {
			v.what += fmt.Sprintf(", b = %d", p.s.Params.Buckets)
		}
		v.what += fmt.Sprintf(", random seed %d, on %s, %s predictor", p.seed, p.s.Machine.Name, p.pred)
		v.unit = "accesses"
		if b, err := mbram.Predict(p.s.Machine, p.s.Kernel, p.s.Params); err != nil {
			v.closedErr = err.Error()
		} else {
			v.closed = &b
		}
	}
	v.cfg = sim.ConfigFor(p.s.Machine, p.pred)
	s, err := sim.New(v.cfg)
	if err != nil {
		v.state, v.err = stateFailed, err.Error()
		p.view = v
		return
	}
	v.cfg = s.Config()
	p.stop()
	p.view = v
	job := &simJob{s: s, cfg: v.cfg}
	kernel, params, seed := p.s.Kernel, p.s.Params, p.seed
	file := p.file
	format := p.format
	var st trace.Stats
	p.job.start(ctx, func(rctx context.Context, t *jobTask) error {
		if v.isTrace {
			r := newFileReader(file.value, file.size)
			var err error
			st, err = trace.Replay(rctx, s, trace.NewReader(r, format, maxTrace), traceSlice(file.size), func(s *sim.Sim, st trace.Stats) {
				job.progress(t, p, st.Bytes, file.size)
			})
			return err
		}
		return kernels.Run(rctx, s, kernel, params, kernels.Options{Seed: seed, Slice: kernels.SliceFor(kernel, params, simSlice),
			Progress: func(s *sim.Sim, done, total int64) { job.progress(t, p, done, total) }})
	}, func(ctx app.Context, err error, t *jobTask) {
		res := s.Result()
		job.samples.pts = append(job.samples.pts, sampleOf(job.cfg, res.Counts))
		p.view.idle = t.idle
		p.finish(res, st, t.wall, job.samples.pts, err)
	})
}

// traceSlice is the slice for a trace of size bytes: about 64 slices over
// the file (a line is some 12 bytes), so its cost chart has points to draw,
// and no more than simSlice records between yields.
func traceSlice(size int64) int64 {
	return min(max(size/12/64, 16), simSlice)
}

// progress runs on the simulating goroutine after every slice.
func (j *simJob) progress(t *jobTask, p *simulatePage, done, total int64) {
	n := j.s.Counts()
	j.samples.add(j.cfg, n)
	t.tick(func(now time.Time) func(app.Context) {
		snap := snapshot{done: done, total: total, counts: n, wall: now.Sub(t.started), idle: t.idle, samples: append([]costSample(nil), j.samples.pts...)}
		return func(ctx app.Context) {
			if p.view != nil && p.view.state == stateRunning {
				p.view.progress(snap)
			}
		}
	})
}

func (v *simView) progress(s snapshot) {
	v.done, v.counts, v.wall, v.idle = s.done, s.counts, s.wall, s.idle
	if s.total > 0 {
		v.total = s.total
	}
	v.samples = s.samples
	if now := time.Now(); now.Sub(v.chartAt) >= chartEvery {
		v.chartAt = now
		v.chart = costOption(v.samples, nil)
	}
}

// finish shows the end of a run: complete, cancelled or failed.
func (p *simulatePage) finish(res sim.Result, st trace.Stats, wall time.Duration, pts []costSample, err error) {
	v := p.view
	v.res, v.counts, v.wall, v.stats, v.samples = res, res.Counts, wall, st, pts
	v.done = res.Counts.Accesses
	if v.isTrace {
		v.done = st.Bytes
	}
	v.phases = phaseMarks(res)
	var le *trace.LineError
	switch {
	case err == nil:
		v.state = stateDone
	case errors.Is(err, context.Canceled):
		v.state = stateCancelled
	case errors.As(err, &le):
		v.state, v.err = stateFailed, le.Error()+" (the records before it were simulated; fix the line and run again)"
	default:
		v.state, v.err = stateFailed, err.Error()
	}
	v.chart = costOption(v.samples, v.phases)
}

// stop cancels the current run, if any; its last report is dropped.
func (p *simulatePage) stop() {
	p.job.stop()
	if p.view != nil && p.view.state == stateRunning {
		p.view.state = stateCancelled
	}
}

// phaseMarks places each phase of a run on the access axis.
func phaseMarks(r sim.Result) []phaseMark {
	if len(r.Phases) == 0 {
		return nil
	}
	var in int64
	for _, ph := range r.Phases {
		in += ph.Counts.Accesses
	}
	// Accesses before the first mark belong to no phase.
	at := r.Counts.Accesses - in
	marks := make([]phaseMark, len(r.Phases))
	for i, ph := range r.Phases {
		marks[i] = phaseMark{name: ph.Name, accesses: at}
		at += ph.Counts.Accesses
	}
	return marks
}

// costOption is the chart of the simulated time accumulating over a run,
// stacked by term, with the kernel's phases as vertical lines.
func costOption(pts []costSample, phases []phaseMark) string {
	names := []string{sim.TermSequential, sim.TermRandom, sim.TermBranches}
	data := make([][][2]float64, 3)
	// Every run starts at nothing.
	pts = append([]costSample{{}}, pts...)
	for _, s := range pts {
		x := float64(s.accesses)
		data[0] = append(data[0], [2]float64{x, s.seq})
		data[1] = append(data[1], [2]float64{x, s.rand})
		data[2] = append(data[2], [2]float64{x, s.misp})
	}
	series := make([]any, 3)
	for i := range names {
		d := data[i]
		if d == nil {
			d = [][2]float64{}
		}
		series[i] = map[string]any{"type": "line", "name": names[i], "stack": "cost", "areaStyle": map[string]any{}, "showSymbol": false, "data": d}
	}
	if len(phases) > 0 {
		var marks []any
		for _, ph := range phases {
			marks = append(marks, map[string]any{"xAxis": ph.accesses, "name": ph.name})
		}
		series[0].(map[string]any)["markLine"] = map[string]any{
			"symbol": "none", "silent": true, "data": marks,
			"lineStyle": map[string]any{"color": "#555", "type": "dashed"},
			"label":     map[string]any{"formatter": "{b}", "position": "insideEndTop", "fontSize": 11},
		}
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"top": 0, "left": 0},
		"grid":      map[string]any{"left": 8, "right": 24, "top": 48, "bottom": 8, "containLabel": true},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     map[string]any{"type": "value", "name": "accesses", "nameLocation": "middle", "nameGap": 28, "max": "dataMax", "axisLabel": map[string]any{"formatter": "@count"}},
		"yAxis":     map[string]any{"type": "value", "name": "simulated time", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series":    series,
	})
}

func mustKernel(id string) mbram.Kernel {
	k, _ := mbram.Lookup(id)
	return k
}

// pickedTrace is the trace file the user chose: the browser's File, read
// only when a run starts.
type pickedTrace struct {
	value app.Value
	name  string
	size  int64
	err   string
}

func (f pickedTrace) ok() bool { return f.name != "" && f.err == "" && f.value != nil }

// pickTrace takes the file chosen in the <input type=file> that fired the
// event, refusing one over maxTrace before anything is read.
func pickTrace(ctx app.Context) pickedTrace {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return pickedTrace{}
	}
	file := files.Index(0)
	f := pickedTrace{value: file, name: file.Get("name").String(), size: int64(file.Get("size").Float())}
	if f.size > maxTrace {
		f.err = fmt.Sprintf("%s is %s; traces up to %s are accepted", f.name, units.FormatSize(f.size), units.FormatSize(maxTrace))
	}
	return f
}

// fileReader reads a browser File in chunks as the replay asks for them,
// so a trace of hundreds of megabytes never sits in memory whole. It
// blocks the simulating goroutine on each chunk's promise, which lets the
// browser run while the chunk is read.
type fileReader struct {
	file      app.Value
	off, size int64
	buf       []byte
}

const fileChunk = 4 << 20

func newFileReader(file app.Value, size int64) *fileReader {
	return &fileReader{file: file, size: size}
}

type chunkResult struct {
	data []byte
	err  error
}

func (r *fileReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		end := min(r.off+fileChunk, r.size)
		done := make(chan chunkResult, 1)
		var onData, onErr app.Func
		onData = app.FuncOf(func(this app.Value, args []app.Value) any {
			arr := app.Window().Get("Uint8Array").New(args[0])
			b := make([]byte, arr.Length())
			app.CopyBytesToGo(b, arr)
			done <- chunkResult{data: b}
			return nil
		})
		onErr = app.FuncOf(func(this app.Value, args []app.Value) any {
			done <- chunkResult{err: fmt.Errorf("reading the file failed: %s", args[0].Call("toString").String())}
			return nil
		})
		r.file.Call("slice", float64(r.off), float64(end)).Call("arrayBuffer").Call("then", onData).Call("catch", onErr)
		c := <-done
		onData.Release()
		onErr.Release()
		if c.err != nil {
			return 0, c.err
		}
		if len(c.data) == 0 {
			return 0, io.ErrUnexpectedEOF
		}
		r.buf = c.data
		r.off += int64(len(c.data))
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// renderStatus is the run panel: progress, Cancel's effect, the rate.
func (p *simulatePage) renderStatus() app.UI {
	v := p.view
	sec := app.Section().ID("status").Class("panel result").Aria("label", "Run")
	if v == nil {
		return sec.Body(
			app.H2().Text("Run"),
			app.P().ID("status-text").Aria("live", "polite").Text("Press Run to simulate. A run of a few million accesses takes about a second; a long one shows its progress and can be cancelled."),
			app.P().Class("note").Text("The simulator charges every line transfer by the model's rules: B/β1 when it continues one of at most μ1 sequential streams, B/β2 otherwise, and m per mispredicted branch. Like the closed forms it is a lower bound."),
		)
	}
	pc := v.percent()
	var status string
	switch v.state {
	case stateRunning:
		status = fmt.Sprintf("Simulating %s… %d %%", v.what, pc)
	case stateDone:
		status = "Finished: " + v.what + "."
	case stateCancelled:
		status = fmt.Sprintf("Cancelled at about %d %%: %s. The results below are for the %s simulated before Cancel.", pc, v.what, plural(v.counts.Accesses, "access", "accesses"))
	case stateFailed:
		status = "Stopped: " + v.what + "."
	}
	return sec.DataSet("state", stateName(v.state)).Body(
		app.H2().Text("Run"),
		app.P().ID("status-text").Aria("live", "polite").Text(status),
		progressBar("progress", "Simulation progress", pc, v.state == stateRunning),
		app.If(v.err != "", app.P().ID("run-error").Class("error").Aria("live", "assertive").Text(v.err)),
		app.P().ID("rate").DataSet("rate", strconv.FormatFloat(v.rate(), 'g', 6, 64)).DataSet("wall", strconv.FormatFloat(v.wall.Seconds(), 'g', 6, 64)).DataSet("idle", strconv.FormatFloat(v.idle.Seconds(), 'g', 6, 64)).Body(
			app.Text(fmt.Sprintf("%s in %s of wall time: ", plural(v.counts.Accesses, "access", "accesses"), units.FormatSeconds(v.wall.Seconds()))),
			app.Strong().Text(formatRate(v.rate())),
			app.Text(fmt.Sprintf(" in this browser, %s (%.0f %% of the time went to keeping the page responsive).", v.inputWork(), 100*v.idleShare())),
		),
	)
}

func formatRate(r float64) string {
	switch {
	case r >= 1e9:
		return strconv.FormatFloat(r/1e9, 'f', 2, 64) + " G accesses/s"
	case r >= 1e6:
		return strconv.FormatFloat(r/1e6, 'f', 1, 64) + " M accesses/s"
	case r >= 1e3:
		return strconv.FormatFloat(r/1e3, 'f', 1, 64) + " k accesses/s"
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + " accesses/s"
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return groupDigits(n) + " " + many
}

// groupDigits writes 12345678 as "12 345 678", readable and exact.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ' ')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// renderResults shows the simulated time beside the closed form, both
// breakdowns, the counts and the cost chart.
func (p *simulatePage) renderResults() app.UI {
	v := p.view
	if v == nil || (v.state == stateFailed && v.counts.Accesses == 0) {
		return app.Div().ID("results").Hidden(true)
	}
	simSecs := v.cfg.Seconds(v.counts)
	terms := v.cfg.Terms(v.counts)
	label := "Simulated"
	switch v.state {
	case stateRunning:
		label = "Simulated so far"
	case stateCancelled, stateFailed:
		label = "Simulated before the stop"
	}
	if v.state != stateRunning {
		simSecs, terms = v.res.Seconds, v.res.Terms
	}
	return app.Section().ID("results").Class("panel result").Aria("label", "Results").DataSet("state", stateName(v.state)).Body(
		app.H2().Text("Results"),
		app.Div().Class("grid").Style("grid-template-columns", sideBySide).Body(
			app.Div().Body(
				app.P().Class("note").Text(label),
				app.P().Class("total").Body(
					app.Span().ID("sim-total").DataSet("seconds", strconv.FormatFloat(simSecs, 'g', -1, 64)).Text(units.FormatSeconds(simSecs)),
				),
			),
			app.Div().Body(
				app.P().Class("note").Text("Closed form (MBRAM formula)"),
				p.renderClosedTotal(v),
			),
		),
		app.If(v.closed != nil && v.state == stateDone && v.closed.Seconds > 0,
			app.P().ID("ratio").Text(fmt.Sprintf("Simulated / closed form = %.3f.", simSecs/closedSeconds(v))),
		),
		app.If(v.closed != nil && v.closed.Regime != "", app.P().Class("regime").Text("Closed form: "+closedRegime(v))),
		app.Div().Class("grid").Style("grid-template-columns", sideBySide).Body(
			termsTable("sim-terms", "Simulated breakdown", terms, simSecs),
			app.If(v.closed != nil, termsTable("closed-terms", "Closed-form breakdown", closedTerms(v), closedSeconds(v))),
		),
		countsTable(v),
		app.If(v.chart != "",
			&chart{ID: "cost-chart", Label: "Simulated time accumulating over the run, by term, against accesses", Option: v.chart, Height: 340},
		),
		app.If(len(v.res.Phases) > 0 && v.state != stateRunning, phasesTable(v.res.Phases)),
		app.P().Class("note").Text("Both are lower bounds: the model charges nothing for hits in the smaller caches, TLB misses or instructions (the MBRAM paper, section II). Where the simulated time differs from the formula, the formula's derivation assumed a pattern the real accesses do not follow."),
	)
}

func closedSeconds(v *simView) float64 {
	if v.closed == nil {
		return 0
	}
	return v.closed.Seconds
}

func closedTerms(v *simView) []mbram.Term {
	if v.closed == nil {
		return nil
	}
	return v.closed.Terms
}

// sideBySide puts the two totals and the two breakdowns next to each other
// where there is room for both (the stylesheet's .grid columns are for
// short items).
const sideBySide = "repeat(auto-fit, minmax(min(100%, 22rem), 1fr))"

// closedRegime is safe without a closed form: app.If evaluates its body
// whatever the condition.
func closedRegime(v *simView) string {
	if v.closed == nil {
		return ""
	}
	return v.closed.Regime
}

func (p *simulatePage) renderClosedTotal(v *simView) app.UI {
	switch {
	case v.isTrace:
		return app.P().ID("closed-total").Class("note").Text("none: a trace has no formula")
	case v.closed == nil:
		return app.P().ID("closed-total").Class("error").Text(v.closedErr)
	}
	return app.P().Class("total").Body(
		app.Span().ID("closed-total").DataSet("seconds", strconv.FormatFloat(v.closed.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(v.closed.Seconds)),
	)
}

func termsTable(id, caption string, terms []mbram.Term, total float64) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().ID(id).Class("terms").Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Term"),
			app.Th().Scope("col").Text("Time"),
			app.Th().Scope("col").Text("Formula"),
		)),
		app.TBody().Body(app.Range(terms).Slice(func(i int) app.UI {
			t := terms[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(t.Name),
				app.Td().Class("num").DataSet("seconds", strconv.FormatFloat(t.Seconds, 'g', -1, 64)).Text(units.FormatSeconds(t.Seconds)),
				app.Td().Body(app.Code().Text(t.Formula)),
			)
		})),
		app.TFoot().Body(app.Tr().Body(
			app.Th().Scope("row").Text("Total"),
			app.Td().Class("num").Text(units.FormatSeconds(total)),
			app.Td(),
		)),
	))
}

func countsTable(v *simView) app.UI {
	c := v.counts
	rows := []struct {
		id, name string
		n        int64
	}{
		{"accesses", "accesses", c.Accesses},
		{"reads", "reads", c.Reads},
		{"writes", "writes", c.Writes},
		{"hits", "hits", c.Hits},
		{"misses", "misses (line fills)", c.Misses},
		{"writebacks", "write-backs", c.Writebacks},
		{"seq", "sequential transfers (B/β1)", c.SeqTransfers},
		{"rand", "random transfers (B/β2)", c.RandTransfers},
		{"branches", "branches", c.Branches},
		{"mispredictions", "mispredictions", c.Mispredictions},
	}
	if v.isTrace {
		rows = append(rows, struct {
			id, name string
			n        int64
		}{"records", "trace records", v.stats.Records})
	}
	return app.Div().Class("table-wrap").Style("max-width", "40rem").Body(app.Table().ID("counts").Class("terms").Body(
		app.Caption().Text("Counts"),
		app.THead().Body(app.Tr().Body(app.Th().Scope("col").Text("Event"), app.Th().Scope("col").Text("Count"))),
		app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
			r := rows[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(r.name),
				app.Td().ID("count-"+r.id).Class("num").DataSet("value", strconv.FormatInt(r.n, 10)).Text(groupDigits(r.n)),
			)
		})),
	))
}

func phasesTable(phases []sim.Phase) app.UI {
	return app.Div().Class("table-wrap").Body(app.Table().ID("phases").Class("terms").Body(
		app.Caption().Text("Phases (marked by the kernel)"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Phase"),
			app.Th().Scope("col").Text("Time"),
			app.Th().Scope("col").Text("Accesses"),
			app.Th().Scope("col").Text("Misses"),
			app.Th().Scope("col").Text("Write-backs"),
		)),
		app.TBody().Body(app.Range(phases).Slice(func(i int) app.UI {
			ph := phases[i]
			return app.Tr().Body(
				app.Th().Scope("row").Text(ph.Name),
				app.Td().Class("num").Text(units.FormatSeconds(ph.Seconds)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Accesses)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Misses)),
				app.Td().Class("num").Text(groupDigits(ph.Counts.Writebacks)),
			)
		})),
	))
}

// inputWork says what the wall time includes besides simulating.
func (v *simView) inputWork() string {
	if v.isTrace {
		return "reading the file included"
	}
	return "data generation included"
}

// formatName says which trace format a run reads.
func formatName(f trace.Format) string {
	switch f {
	case trace.Lackey:
		return "Valgrind Lackey"
	case trace.Detect:
		return "format detected from its first line"
	}
	return "plain"
}
