package app

import (
	"errors"
	"fmt"
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
	p.s, p.seed, p.pred = s, r.Seed, r.Pred()
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
	return scenario.Run{Scenario: p.s, Seed: p.seed, Predictor: p.pred.String()}
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
	if p.linkMachine == nil {
		return
	}
	m := p.lib.put(*p.linkMachine)
	if err := p.lib.save(ctx); err != nil {
		p.linkMsgs = append(p.linkMsgs, err.Error())
		return
	}
	p.linkMachine = nil
	p.s.Machine = m
}

func (p *simulatePage) onCopy(ctx app.Context, e app.Event) {
	if !copyText(p.share) {
		app.Window().GetElementByID("share-link").Call("select")
	}
}

func (p *simulatePage) running() bool { return p.view != nil && p.view.state == stateRunning }

func (p *simulatePage) Render() app.UI {
	k, _ := mbram.Lookup(p.s.Kernel)
	busy := p.running()
	return shell("/simulate",
		app.H1().Text("Simulate"),
		app.P().Class("lead").Text("Run a real kernel on generated data, or replay a memory trace, through the rules of the MBRAM model (the MBRAM paper, section II): an LRU cache of C/B lines, sequential and random transfers, a branch predictor. The closed form for the same inputs stands beside it."),
		linkProblems(p.linkMsgs),
		app.Div().Class("columns").Body(
			app.Form().Class("panel inputs").Aria("label", "Inputs").OnSubmit(p.onSubmit).Body(
				app.H2().Text("Machine"),
				selectField("machine", "Machine", menuValue(p.s.Machine), p.lib.options(p.linkMachine, "From a link"), p.onMachine),
				machineSummary(p.s.Machine),
				app.If(p.linkMachine != nil && p.s.Machine.ID == "",
					app.Button().Type("button").ID("save-link-machine").Text("Save this machine to my machines").OnClick(p.onSaveLinkMachine),
				),
				app.H2().Text("What to simulate"),
				app.FieldSet().Class("compare").Body(
					app.Legend().Text("Source"),
					radio("source-kernel", "source", "A kernel on generated data", p.source == sourceKernel, p.onSource(sourceKernel)),
					radio("source-trace", "source", "A trace file", p.source == sourceTrace, p.onSource(sourceTrace)),
				),
				app.If(p.source == sourceKernel, p.renderKernelInputs(k)).Else(p.renderTraceInputs()),
				// A trace has memory accesses only: no branch to predict.
				app.If(p.source == sourceKernel, selectField("predictor", "Branch predictor", p.pred.String(), []option{
					{Value: sim.Majority.String(), Label: "majority (the MBRAM paper's idealised rule)"},
					{Value: sim.TwoBit.String(), Label: "2-bit saturating counter"},
				}, p.onPredictor)),
				app.Div().Class("row actions").Body(
					dimmed(app.Button().Type("submit").ID("run").Disabled(busy).Text("Run"), busy),
					dimmed(app.Button().Type("button").ID("cancel").Disabled(!busy).Text("Cancel").OnClick(p.onCancel), !busy),
				),
				app.If(len(p.errs) > 0, app.P().ID("form-error").Class("error").Text("Fix the marked field to run.")),
			),
			p.renderStatus(),
		),
		p.renderResults(),
		p.renderShare(),
	)
}

func (p *simulatePage) renderKernelInputs(k mbram.Kernel) app.UI {
	kk, _ := kernels.Lookup(p.s.Kernel)
	nHint := "e.g. 1Mi, 2^23, 1e6; up to 2^26"
	if k.NIsDimension() {
		nHint = "e.g. 256, 2^10; up to 4096 (2n³ accesses)"
	}
	return app.Div().Body(
		selectField("kernel", "Kernel", p.s.Kernel, kernelOptions(), p.onKernel),
		app.P().Class("summary").Text("Runs on "+kk.Data+"."),
		textField{ID: "n", Label: paramLabel(k, "n"), Value: p.form.shown["n"], Hint: nHint, Err: p.errs["n"], OnInput: p.onText("n")}.UI(),
		app.Div().Class("row").Body(
			textField{ID: "w", Label: "w, word size (bytes)", Value: p.form.shown["w"], Hint: "a power of two up to B", Err: p.errs["w"], OnInput: p.onText("w"), Size: 6}.UI(),
			app.If(hasParam(k, "b"),
				textField{ID: "b", Label: "b, buckets per pass", Value: p.form.shown["b"], Hint: "2 to 65536", Err: p.errs["b"], OnInput: p.onText("b"), Size: 6}.UI(),
			),
			textField{ID: "seed", Label: "Random seed of the data", Value: p.form.shown["seed"], Hint: "a whole number; the same seed gives the same data", Err: p.errs["seed"], OnInput: p.onText("seed"), Size: 8}.UI(),
		),
	)
}

func (p *simulatePage) renderTraceInputs() app.UI {
	picked := "No file chosen."
	if p.file.name != "" {
		picked = "Chosen: " + p.file.name + " (" + humanBytes(int(p.file.size)) + ")."
	}
	return app.Div().Body(
		selectField("trace-format", "Trace format", p.format.String(), []option{
			{Value: trace.Detect.String(), Label: "detect from the file"},
			{Value: trace.Plain.String(), Label: "plain: R|W address size"},
			{Value: trace.Lackey.String(), Label: "Valgrind Lackey (--trace-mem=yes)"},
		}, p.onFormat),
		app.Div().Class("field").Body(
			app.Label().For("trace-file").Text("Trace file"),
			app.Input().ID("trace-file").Type("file").Aria("describedby", "trace-file-hint").OnChange(p.onPickTrace),
			app.Small().ID("trace-file-hint").Class("hint").Text(fmt.Sprintf("up to %s; read from your disk as it is simulated, never uploaded", units.FormatSize(maxTrace))),
		),
		app.P().ID("trace-picked").Class("summary").Text(picked),
		app.If(p.file.err != "", app.P().ID("trace-file-err").Class("error").Aria("live", "polite").Text(p.file.err)),
	)
}

// dimmed greys out a disabled button (the stylesheet does not).
func dimmed(b app.HTMLButton, off bool) app.UI {
	if off {
		return b.Style("opacity", "0.45").Style("cursor", "default")
	}
	return b
}

func radio(id, name, label string, checked bool, onChange app.EventHandler) app.UI {
	return app.Span().Class("check").Body(
		app.Input().Type("radio").ID(id).Name(name).Checked(checked).OnChange(onChange),
		app.Label().For(id).Text(label),
	)
}

func (p *simulatePage) renderShare() app.UI {
	return app.Section().ID("share").Class("panel").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		app.If(p.shareErr == "",
			app.Div().Class("row").Body(
				app.Label().For("share-link").Class("visually-hidden").Text("Link to this simulation"),
				app.Input().ID("share-link").Type("text").ReadOnly(true).Value(p.share).Class("link"),
				app.Button().ID("copy-link").Text("Copy link").OnClick(p.onCopy),
				downloadButton("sim-download", p.onDownload),
			),
		).Else(
			app.P().Class("error").Text(p.shareErr),
		),
		app.P().Class("note").Text("The link holds the machine, the kernel, n, w, b, the random seed and the predictor after the #. Opened, it fills the form; a small run starts by itself, a large one waits for Run. A trace file does not go into a link. memwall simulate reads the link with --link and the file with --scenario."),
	)
}
