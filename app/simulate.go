package app

import (
	"errors"
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/sim"
	"memwall/engine/trace"
	"memwall/engine/units"
	"memwall/presets"
)

// simulatePage runs the trace simulator of the MBRAM paper (docs/readings.md) in the
// browser: a kernel of engine/kernels on generated data, or a trace file,
// through engine/sim, beside the closed form of engine/mbram. The inputs of
// a kernel run are the URL fragment: the scenario's keys (machine, kernel,
// n, w, b) plus seed and pred.
type simulatePage struct {
	app.Compo

	lib         library
	linkMachine *machine.Machine

	s        scenario.Scenario // machine, kernel and workload; always valid
	seed     uint64
	pred     sim.Predictor
	source   string // sourceKernel or sourceTrace
	curve    bool   // run with the miss curve (exact stack distances)
	format   trace.Format
	file     pickedTrace
	form     formText
	errs     map[string]string
	linkMsgs []string

	share, shareErr string

	job  job      // the current run; progress of older runs is dropped
	view *simView // the running or last run; nil before the first
}

const (
	sourceKernel = "kernel"
	sourceTrace  = "trace"
)

// simDefaultN is the page's default size: quicksort of 1Mi keys simulates
// in about a second in a browser, where the 8Mi of the MBRAM paper's Fig. 5 takes
// several (the link or the field gives 8Mi in one edit).
const simDefaultN = 1 << 20

// autoRun bounds the runs a link starts by itself: a link shows its numbers
// at once when they take a moment, and waits for Run otherwise.
func autoRun(kernel string, n int64) bool {
	if nIsDimension(kernel) {
		return n <= 64 // 2n³ = 512Ki accesses
	}
	return n <= 1<<16
}

func (p *simulatePage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *simulatePage) OnNav(ctx app.Context) {
	p.stop()
	p.view = nil
	frag := pageFragment(ctx)
	p.init(ctx, frag)
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
	if frag != "" && len(p.errs) == 0 && autoRun(p.s.Kernel, p.s.Params.N) {
		p.start(ctx)
	}
}

// OnDismount stops a run when the user leaves the page.
func (p *simulatePage) OnDismount() { p.stop() }

func (p *simulatePage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Simulate", "Run a sort, a permutation product or a matrix product, or replay a memory trace, through the MBRAM model's cache and branch rules, and compare with the closed form.")
	p.lib = loadLibrary(ctx)
	base := scenario.DefaultRun(presets.Machine)
	base.Params.N = simDefaultN
	r, problems := scenario.ParseRunFragment(fragment, base, presets.Machine)
	p.linkMsgs = p.linkMsgs[:0]
	for _, pr := range problems {
		p.linkMsgs = append(p.linkMsgs, pr.Error())
	}
	p.linkMachine = nil
	s := r.Scenario
	if s.Machine.ID == "" {
		if m, ok := p.lib.match(s.Machine); ok {
			s.Machine = m
		} else {
			m := s.Machine
			p.linkMachine = &m
		}
	}
	p.s, p.seed, p.pred, p.curve = s, r.Seed, r.Pred(), r.MissCurve
	if p.source == "" {
		p.source = sourceKernel
		p.format = trace.Detect
	}
	p.errs = map[string]string{}
	p.resetText(ctx)
	// The scenario checks the closed form's limits; the simulator has
	// tighter ones (the data really exist), said at the field.
	p.checkSim(p.s.Params)
}

// run is the page's kernel run as the model's scenario.
func (p *simulatePage) run() scenario.Run {
	return scenario.Run{Scenario: p.s, Seed: p.seed, Predictor: p.pred.String(), MissCurve: p.curve}
}

// onDownload offers the run as a scenario file, which memwall simulate
// reads with --scenario.
func (p *simulatePage) onDownload(ctx app.Context, e app.Event) {
	download("memwall-simulation.json", "application/json", p.run().JSON())
}

func (p *simulatePage) resetText(ctx app.Context) {
	p.form.set(ctx, map[string]string{
		"n":    units.FormatCount(p.s.Params.N),
		"w":    strconv.FormatInt(p.s.Params.W, 10),
		"b":    strconv.FormatInt(p.s.Params.Buckets, 10),
		"seed": strconv.FormatUint(p.seed, 10),
	})
}

// checkSim marks a workload the closed form takes and the simulator does
// not (more than 2^26 elements, a word wider than the line).
func (p *simulatePage) checkSim(params mbram.Params) bool {
	if err := kernels.Check(p.s.Kernel, params, p.s.Machine.B); err != nil {
		var pe *mbram.ParamError
		if errors.As(err, &pe) {
			p.errs[pe.Field] = fieldName(pe.Field) + ": " + pe.Msg
		} else {
			p.errs["n"] = err.Error()
		}
		return false
	}
	return true
}

func fieldName(key string) string {
	switch key {
	case "n":
		return "n"
	case "w":
		return "word size"
	case "b":
		return "buckets"
	}
	return key
}

// applyText reads every field; the inputs change only when all are good.
func (p *simulatePage) applyText() bool {
	p.errs = map[string]string{}
	params := p.s.Params
	k, _ := mbram.Lookup(p.s.Kernel)
	count := func(key, what string, dst *int64) {
		v, err := scenario.ParseParam(key, p.form.text[key])
		if err != nil {
			p.errs[key] = what + ": " + err.Error()
			return
		}
		*dst = v
	}
	count("n", paramMeaning(k, "n"), &params.N)
	count("w", "word size", &params.W)
	if hasParam(k, "b") {
		count("b", "buckets", &params.Buckets)
	}
	seed, err := scenario.ParseSeed(p.form.text["seed"])
	if err != nil {
		p.errs["seed"] = "Random seed: " + err.Error()
	}
	if len(p.errs) > 0 || !p.checkSim(params) {
		return false
	}
	p.s.Params, p.seed = params, seed
	return true
}

func (p *simulatePage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *simulatePage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.run().Fragment(presets.Machine)
	u, msg := shareURL(ctx, frag, err)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *simulatePage) onMachine(ctx app.Context, e app.Event) {
	if m, ok := p.lib.chosen(inputValue(ctx), p.linkMachine); ok {
		p.s.Machine = m
	}
	// The word size is checked against the line, so a machine change may
	// make a good w bad or a bad one good.
	if p.applyText() {
		p.writeURL(ctx)
	}
}

func (p *simulatePage) onKernel(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	k, ok := mbram.Lookup(id)
	if !ok {
		return
	}
	if !sameAxis(id, p.s.Kernel) {
		// n is a matrix dimension for matmul and an element count
		// otherwise: take the kernel's default.
		p.s.Params.N = paramDefault(k, "n", p.s.Params.N)
		if !k.NIsDimension() {
			p.s.Params.N = simDefaultN
		}
	}
	p.s.Kernel = id
	p.errs = map[string]string{}
	p.resetText(ctx)
	if p.applyText() {
		p.writeURL(ctx)
	}
}

func (p *simulatePage) onPredictor(ctx app.Context, e app.Event) {
	if pr, err := sim.ParsePredictor(inputValue(ctx)); err == nil {
		p.pred = pr
		p.writeURL(ctx)
	}
}

func (p *simulatePage) onCurve(ctx app.Context, e app.Event) {
	p.curve = ctx.JSSrc().Get("checked").Bool()
	p.writeURL(ctx)
}

func (p *simulatePage) onSource(src string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.source = src }
}

func (p *simulatePage) onFormat(ctx app.Context, e app.Event) {
	if f, err := trace.ParseFormat(inputValue(ctx)); err == nil {
		p.format = f
	}
}

func (p *simulatePage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		if p.applyText() {
			p.writeURL(ctx)
		}
	}
}

func (p *simulatePage) onPickTrace(ctx app.Context, e app.Event) {
	p.file = pickTrace(ctx)
}

func (p *simulatePage) onSubmit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if p.running() {
		return
	}
	p.start(ctx)
}

func (p *simulatePage) onCancel(ctx app.Context, e app.Event) { p.job.cancelRun() }

func (p *simulatePage) onSaveLinkMachine(ctx app.Context, e app.Event) {
	if _, err := p.lib.saveLinked(ctx, &p.linkMachine, &p.s.Machine); err != nil {
		p.linkMsgs = append(p.linkMsgs, err.Error())
	}
}

func (p *simulatePage) onCopy(ctx app.Context, e app.Event) {
	if !copyText(p.share) {
		app.Window().GetElementByID("share-link").Call("select")
	}
}

func (p *simulatePage) running() bool { return p.view != nil && p.view.state == stateRunning }
