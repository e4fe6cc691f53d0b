package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/numl"
	"memwall/engine/units"
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

// commKeys are the link keys, in the order links write them.
var commKeys = []string{"kind", "W", "k", "w", "r", "L", "o", "data", "y", "train", "N", "px", "pr", "pc", "bmax", "std", "m1"}

// commDefaults: three 4-byte columns of a 1000×1000 integer array (W = 4000
// bytes, gcd(W, 64) = 32, so row starts repeat every 2 rows), the message
// times measured on the development machine fitted with W = 4000 held out,
// and the convolution of a 1024×1024 image on an 8×32 mesh (blocks of 128
// rows of 32 pixels, where a column message touches a line per row and the
// example coefficients predict different crossovers).
func commDefaults() map[string]string {
	std, m1 := numl.ExampleCoefficients()
	return map[string]string{
		"kind": "columns", "W": "4000", "k": "3", "w": "4", "r": "1000", "L": "64", "o": "5",
		"data": commDevbox, "y": "time", "train": commDevboxTrain,
		"N": "1024", "px": "4", "pr": "8", "pc": "32", "bmax": "10",
		"std": std.String(), "m1": m1.String(),
	}
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
	vals, msgs := parseLink(fragment, commKeys)
	p.linkMsgs = msgs
	text := commDefaults()
	for k, v := range vals {
		text[k] = v
	}
	p.form.set(ctx, text)
	p.notice = ""
	p.fit.useNote = ""
	p.recompute()
	p.loadData(ctx, vals)
	for _, k := range commKeys {
		if e, ok := p.errs[k]; ok {
			if _, fromLink := vals[k]; fromLink {
				p.linkMsgs = append(p.linkMsgs, e)
			}
		}
	}
}

// parse reads every field, marking each one that does not read.
func (p *communicationPage) parse() commInputs {
	p.errs = map[string]string{}
	t := p.form.text
	var in commInputs
	num := func(key, label string, count bool) int64 {
		v := strings.TrimSpace(t[key])
		var n int64
		var err error
		if count {
			n, err = units.ParseCount(v)
		} else {
			n, err = units.ParseSize(v)
		}
		if err != nil {
			p.errs[key] = fmt.Sprintf("%s: %v", label, err)
		}
		return n
	}
	kind, err := numl.ParseKind(strings.TrimSpace(t["kind"]))
	if err != nil {
		p.errs["kind"] = "What is sent: rows or columns"
	}
	s := numl.Shape{Kind: kind,
		W: num("W", "Row width W", false), K: num("k", "k", true),
		Line: num("L", "Line size L", false), Offset: num("o", "Offset o", false)}
	if kind == numl.Columns {
		s.Elem = num("w", "Element size w", false)
		s.R = num("r", "Rows r", true)
	}
	shapeKeys := []string{"kind", "W", "k", "w", "r", "L", "o"}
	if !anyErr(p.errs, shapeKeys) {
		if err := s.Validate(); err != nil {
			p.fieldErr(err, map[string][2]string{"W": {"W", "Row width W"}, "k": {"k", "k"}, "w": {"w", "Element size w"},
				"r": {"r", "Rows r"}, "L": {"L", "Line size L"}, "o": {"o", "Offset o"}, "kind": {"kind", "What is sent"}})
		} else {
			in.shapeOK = true
		}
	}
	in.shape = s
	c := numl.Conv{N: num("N", "Image side N", true), Elem: num("px", "Bytes per pixel", false),
		Pr: num("pr", "Mesh rows", true), Pc: num("pc", "Mesh columns", true), Line: s.Line}
	in.bmax = num("bmax", "Largest box size", true)
	var e1, e2 error
	in.std, e1 = numl.ParseCoef("", t["std"])
	if e1 == nil && (in.std.Gamma != 0 || in.std.GammaMem != 0) {
		e1 = fmt.Errorf("the standard model has no lines-touched terms: leave out gamma and gamma_mem")
	}
	if e1 != nil {
		p.errs["std"] = "Standard-model coefficients: " + e1.Error()
	}
	in.m1, e2 = numl.ParseCoef("", t["m1"])
	if e2 != nil {
		p.errs["m1"] = "M1 coefficients: " + e2.Error()
	}
	convKeys := []string{"N", "px", "pr", "pc", "bmax", "L"}
	if !anyErr(p.errs, convKeys) {
		if err := c.Validate(); err != nil {
			p.fieldErr(err, map[string][2]string{"N": {"N", "Image side N"}, "w": {"px", "Bytes per pixel"},
				"pr": {"pr", "Mesh rows"}, "pc": {"pc", "Mesh columns"}, "L": {"L", "Line size L"}})
		} else if hi := min(c.MaxBlock(), 4096); in.bmax < 1 || in.bmax > hi {
			p.errs["bmax"] = fmt.Sprintf("Largest box size: between 1 and %d (the smaller side of a processor's %d×%d block)", hi, (c.N+c.Pr-1)/c.Pr, (c.N+c.Pc-1)/c.Pc)
		} else {
			in.convOK = e1 == nil && e2 == nil
		}
	}
	in.conv = c
	return in
}

func anyErr(errs map[string]string, keys []string) bool {
	for _, k := range keys {
		if _, ok := errs[k]; ok {
			return true
		}
	}
	return false
}

// fieldErr puts an engine error under the field it names: keys maps the
// engine's field to the page's key and label (a convolution's pixel size
// is the engine's w and the page's px).
func (p *communicationPage) fieldErr(err error, keys map[string][2]string) {
	var fe *numl.FieldError
	if !errors.As(err, &fe) {
		p.errs["W"] = err.Error()
		return
	}
	kl, ok := keys[fe.Field]
	if !ok {
		kl = [2]string{fe.Field, fe.Field}
	}
	p.errs[kl[0]] = kl[1] + ": " + fe.Msg
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

func (p *communicationPage) fragment() string {
	var pairs [][2]string
	kind := strings.TrimSpace(p.form.text["kind"])
	for _, k := range commKeys {
		if (k == "w" || k == "r") && kind == "rows" {
			continue
		}
		pairs = append(pairs, [2]string{k, p.form.text[k]})
	}
	return linkFragment(pairs)
}

func (p *communicationPage) writeURL(ctx app.Context) {
	if u := p.shareLink(ctx); u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *communicationPage) shareLink(ctx app.Context) *url.URL {
	u, msg := shareURL(ctx, p.fragment(), nil)
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
	d := commDefaults()
	p.form.set(ctx, map[string]string{"std": d["std"], "m1": d["m1"]})
	p.recompute()
	p.writeURL(ctx)
}

func (p *communicationPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "comm-link")
}
