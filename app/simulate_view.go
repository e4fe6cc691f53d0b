package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/kernels"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/engine/trace"
	"memwall/engine/units"
)

func (p *simulatePage) Render() app.UI {
	k, _ := mbram.Lookup(p.s.Kernel)
	busy := p.running()
	return shell("/simulate",
		app.H1().Text("Simulate"),
		app.P().Class("lead").Text("Run a real kernel on generated data, or replay a memory trace, through the rules of the MBRAM model (the MBRAM paper, section II): an LRU cache of C/B lines, sequential and random transfers, a branch predictor. The closed form for the same inputs stands beside it. On a machine that gives its cache levels, the kernel or trace also runs through the hierarchy simulator, every level an LRU cache."),
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
				missCurveBox(p.curve, p.onCurve),
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
			linkRow("share-link", "copy-link", "Link to this simulation", p.share, p.onCopy, downloadButton("sim-download", p.onDownload)),
		).Else(
			app.P().Class("error").Text(p.shareErr),
		),
		app.P().Class("note").Text("The link holds the machine, the kernel, n, w, b, the random seed, the predictor and the miss curve's box after the #. Opened, it fills the form; a small run starts by itself, a large one waits for Run. A trace file does not go into a link. memwall simulate reads the link with --link and the file with --scenario."),
	)
}
