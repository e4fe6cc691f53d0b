package app

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/link"
	"memwall/engine/numl"
)

// communicationPage shows the lines-touched paper's communication model with lines
// touched: how many distinct memory lines a row or column transfer touches
// (exactly at an offset, and its least and greatest over offsets, with a
// picture of the lines), and which of the two uniform-convolution programs
// of the paper's section 7 is predicted faster at each box size under the
// standard model and under M1. Every input is in the URL fragment.
type communicationPage struct {
	app.Compo

	form     formText
	errs     map[string]string
	linkMsgs []string
	out      commOutcome
	stale    bool
	fit      commFit

	share, shareErr, notice string
}

// commInputs are the parsed inputs.
type commInputs struct {
	shape   numl.Shape
	conv    numl.Conv
	bmax    int64
	std, m1 numl.Coef
	shapeOK bool
	convOK  bool
}

// commOutcome is everything the page shows.
type commOutcome struct {
	in      commInputs
	u       int64
	span    numl.Range
	paper   numl.PaperBounds
	closed  numl.ClosedForm
	use     []numl.LineUse
	total   int64
	shapeEr string

	std, m1 numl.Curve
	chart   string
	convEr  string
}

func (p *communicationPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *communicationPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
}

func (p *communicationPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Communication", "Count the memory lines a row or column transfer touches (NUML) and predict which uniform-convolution program is faster, with the communication model of the lines-touched paper.")
	p.load(ctx, fragment)
}

// load reads a fragment over the defaults; tests call it without a page.
func (p *communicationPage) load(ctx app.Context, fragment string) {
	p.form.prefix = "comm-"
	vals, es := link.Read(fragment, numl.Form.Keys)
	p.linkMsgs = messages(es)
	text := numl.Form.Defaults()
	for k, v := range vals {
		text[k] = v
	}
	p.form.set(ctx, text)
	p.notice = ""
	p.fit.useNote = ""
	p.recompute()
	p.loadData(ctx, vals)
	for _, k := range numl.Form.Keys {
		if e, ok := p.errs[k]; ok {
			if _, fromLink := vals[k]; fromLink {
				p.linkMsgs = append(p.linkMsgs, e)
			}
		}
	}
}

// parse reads every field through the model's scenario, marking each one
// that does not read.
func (p *communicationPage) parse() commInputs {
	sc, es := numl.ParseScenario(p.form.text)
	p.errs = map[string]string{}
	for _, e := range es {
		p.errs[e.Field] = e.Msg
	}
	return commInputs{shape: sc.Shape, conv: sc.Conv, bmax: sc.BMax, std: sc.Std, m1: sc.M1, shapeOK: sc.ShapeOK, convOK: sc.ConvOK}
}

// maxPictureLines bounds the picture: 32 rows of 32 lines.
const maxPictureLines = 1024

func (p *communicationPage) recompute() {
	in := p.parse()
	p.stale = len(p.errs) > 0
	o := &p.out
	if in.shapeOK {
		o.in.shape, o.in.shapeOK = in.shape, true
		o.u, _ = numl.Lines(in.shape)
		o.span, _ = numl.Span(in.shape)
		o.paper, _ = numl.Paper(in.shape)
		o.closed, _ = numl.Closed(in.shape)
		o.use, o.total, _ = numl.Use(in.shape, maxPictureLines)
	}
	if in.convOK {
		o.in.conv, o.in.bmax, o.in.std, o.in.m1, o.in.convOK = in.conv, in.bmax, in.std, in.m1, true
		var err error
		if o.std, err = numl.Compare(in.conv, in.std, in.bmax); err == nil {
			o.m1, err = numl.Compare(in.conv, in.m1, in.bmax)
		}
		o.convEr = ""
		if err != nil {
			o.convEr = err.Error()
		}
		o.chart = convOption(o.std, o.m1)
	}
}

func (p *communicationPage) fragment() (string, error) {
	return numl.Form.Fragment(p.form.text)
}

func (p *communicationPage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *communicationPage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.fragment()
	u, msg := shareURL(ctx, frag, err)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *communicationPage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		p.notice = ""
		p.recompute()
		p.writeURL(ctx)
	}
}

func (p *communicationPage) onKind(ctx app.Context, e app.Event) {
	p.form.set(ctx, map[string]string{"kind": inputValue(ctx)})
	p.recompute()
	p.writeURL(ctx)
}

// onExample takes the illustrative coefficients back.
func (p *communicationPage) onExample(ctx app.Context, e app.Event) {
	d := numl.Form.Defaults()
	p.form.set(ctx, map[string]string{"std": d["std"], "m1": d["m1"]})
	p.recompute()
	p.writeURL(ctx)
}

// onDownload offers the inputs as a scenario file, which memwall numl lines
// and conv read with --scenario.
func (p *communicationPage) onDownload(ctx app.Context, e app.Event) {
	download("memwall-communication.json", "application/json", numl.Form.JSON(p.form.text))
}

func (p *communicationPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "comm-link")
}
