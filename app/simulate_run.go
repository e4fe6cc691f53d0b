package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/machine"
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
	// hier is the run through the hierarchy simulator, when the machine
	// gives its cache levels and the run finished.
	hier *hier.Result
	// curves are the run's miss curves, when asked for and it finished;
	// mach is the machine it ran on.
	curves []hier.MissCurve
	mach   machine.Machine
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
	// A kernel or a trace on a machine that gives its cache levels also
	// goes through the hierarchy simulator, and on any machine when the
	// miss curve is asked for.
	hs, err := hier.NewForRun(p.s.Machine, p.curve)
	if err != nil {
		v.state, v.err = stateFailed, err.Error()
		p.view = v
		return
	}
	mach := p.s.Machine
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
			var tee trace.Tee // nil, not a nil *hier.Sim, on a machine without levels
			if hs != nil {
				tee = hs
			}
			st, err = trace.Replay(rctx, s, tee, trace.NewReader(r, format, maxTrace), traceSlice(file.size), func(s *sim.Sim, st trace.Stats) {
				job.progress(t, p, st.Bytes, file.size)
			})
			return err
		}
		o := kernels.Options{Seed: seed, Slice: kernels.SliceFor(kernel, params, simSlice),
			Progress: func(s *sim.Sim, done, total int64) { job.progress(t, p, done, total) }}
		if hs != nil {
			o.Tracer = hs
		}
		return kernels.Run(rctx, s, kernel, params, o)
	}, func(ctx app.Context, err error, t *jobTask) {
		res := s.Result()
		if hs != nil && err == nil {
			if len(mach.Levels) > 0 {
				var hr hier.Result
				if v.isTrace {
					hr = hs.TraceResult()
				} else {
					hr = hs.KernelResult(mach, kernel, params, res.Counts.Mispredictions)
				}
				p.view.hier = &hr
			}
			p.view.curves = hs.MissCurves(missCurvePerDoubling)
			p.view.mach = mach
		}
		job.samples.pts = append(job.samples.pts, sampleOf(job.cfg, res.Counts))
		p.view.idle = t.idle
		p.finish(res, st, t.wall, job.samples.pts, err)
	})
}

// missCurvePerDoubling is the miss curve's cache sizes a doubling.
const missCurvePerDoubling = 8

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
