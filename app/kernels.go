package app

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/estimate"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/engine/units"
	"memwall/presets"
)

// kernelsPage is the MBRAM calculator: a machine and a kernel of the MBRAM paper
// in, the predicted time and its breakdown out, with a sweep over N. Its
// whole state is the URL fragment (package scenario).
type kernelsPage struct {
	app.Compo

	lib library
	// linkMachine is a machine that came inline in the link and is not in
	// the library; the machine menu offers it until another is picked.
	linkMachine *machine.Machine

	s        scenario.Scenario // what the results show; always valid
	form     formText          // workload fields, by link key
	errs     map[string]string // field messages, by link key
	linkMsgs []string          // problems of the link the page opened with

	// est is the prediction: the model the machine calls for, what kind
	// of number it is, and the other model's beside it (engine/estimate,
	// the CLI's choice too).
	est      estimate.Result
	resErr   string
	bars     string // breakdown chart option
	sweep    sweepResult
	share    string // the share link
	shareErr string
	notice   string
	linkGen  int // edits so far; a link write waits for the typing to settle
}

func (p *kernelsPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *kernelsPage) OnNav(ctx app.Context) {
	p.init(ctx, pageFragment(ctx))
	if len(p.linkMsgs) == 0 {
		p.writeURL(ctx)
	} else {
		p.shareLink(ctx)
	}
}

// init reads the scenario from a fragment over the default one.
func (p *kernelsPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Kernels", "Predict the running time of permutation products, matrix products and sorts from a machine's memory bandwidths, cache and branch penalty (MBRAM model).")
	p.lib = loadLibrary(ctx)
	s, probs := scenario.ParseFragment(fragment, scenario.Default(presets.Machine), presets.Machine)
	p.linkMsgs = p.linkMsgs[:0]
	for _, pr := range probs {
		p.linkMsgs = append(p.linkMsgs, pr.Error())
	}
	p.linkMachine = nil
	if s.Machine.ID == "" {
		s.Machine, p.linkMachine = p.lib.linked(s.Machine)
	}
	p.s = s
	p.errs = map[string]string{}
	p.resetText(ctx)
	p.recompute()
}

// resetText writes the scenario's workload into the fields.
func (p *kernelsPage) resetText(ctx app.Context) {
	vals := map[string]string{
		"n":    units.FormatCount(p.s.Params.N),
		"w":    strconv.FormatInt(p.s.Params.W, 10),
		"b":    strconv.FormatInt(p.s.Params.Buckets, 10),
		"from": "",
		"to":   "",
	}
	if p.s.SweepFrom > 0 {
		vals["from"] = units.FormatCount(p.s.SweepFrom)
	}
	if p.s.SweepTo > 0 {
		vals["to"] = units.FormatCount(p.s.SweepTo)
	}
	p.form.set(ctx, vals)
}

func (p *kernelsPage) recompute() {
	p.est, p.resErr = estimate.Result{}, ""
	if r, err := estimate.Predict(p.s.Machine, p.s.Kernel, p.s.Params, estimate.Auto); err != nil {
		p.resErr = err.Error()
	} else {
		p.est = r
	}
	p.bars = breakdownOption(p.est.Breakdown)
	p.sweep = sweepKernels(p.s, estimate.Choose(estimate.Auto, p.s.Machine))
}

// update is what every edit ends with: new results and a new link.
func (p *kernelsPage) update(ctx app.Context) {
	p.notice = ""
	p.recompute()
	p.writeURL(ctx)
}

// writeURL puts the scenario in the address bar without a history entry.
func (p *kernelsPage) writeURL(ctx app.Context) {
	u := p.shareLink(ctx)
	if u != nil {
		ctx.Page().ReplaceURL(u)
	}
}

func (p *kernelsPage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.s.Fragment(presets.Machine)
	u, msg := shareURL(ctx, frag, err)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *kernelsPage) onMachine(ctx app.Context, e app.Event) {
	if m, ok := p.lib.chosen(inputValue(ctx), p.linkMachine); ok {
		p.s.Machine = m
	}
	p.update(ctx)
}

func (p *kernelsPage) onKernel(ctx app.Context, e app.Event) {
	id := inputValue(ctx)
	k, ok := mbram.Lookup(id)
	if !ok {
		return
	}
	if !sameAxis(id, p.s.Kernel) {
		// N means a matrix dimension for matmul and an element count
		// otherwise: take the kernel's default and the default sweep.
		p.s.Params.N = paramDefault(k, "n", p.s.Params.N)
		p.s.SweepFrom, p.s.SweepTo = 0, 0
	}
	if slices.Equal(p.s.Compare, scenario.DefaultCompare(p.s.Kernel)) || !sameAxis(id, p.s.Kernel) {
		// An untouched comparison follows the kernel (the other sorts, or
		// the other permutation product); one the user chose stays.
		p.s.Compare = scenario.DefaultCompare(id)
	}
	p.s.Kernel = id
	p.s.Compare = without(p.s.Compare, id)
	if err := k.Check(p.s.Params); err != nil {
		p.s.Params = mbram.DefaultParams(paramDefault(k, "n", p.s.Params.N))
	}
	p.errs = map[string]string{}
	p.resetText(ctx)
	p.update(ctx)
}

// onText keeps what the user typed and applies it when every field reads.
func (p *kernelsPage) onText(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		p.linkGen++
		if !p.applyText() {
			// A value on its way to a refused one ("2^7" of "2^70") was
			// never meant: the link keeps the values accepted before.
			return
		}
		p.notice = ""
		p.recompute()
		gen := p.linkGen
		ctx.After(linkSettle, func(ctx app.Context) {
			if gen == p.linkGen && len(p.errs) == 0 {
				p.writeURL(ctx)
			}
		})
	}
}

// linkSettle is how long the fields must rest before the address bar
// takes the new values: typing "2^70" passes through "2^7", which reads.
const linkSettle = 400 * time.Millisecond

// applyText parses every workload field; it changes the scenario only when
// all of them are good, and marks each bad one.
func (p *kernelsPage) applyText() bool {
	p.errs = map[string]string{}
	params := p.s.Params
	k, _ := mbram.Lookup(p.s.Kernel)
	count := func(key, what string, dst *int64, optional bool) {
		t := strings.TrimSpace(p.form.text[key])
		if t == "" && optional {
			*dst = 0
			return
		}
		v, err := scenario.ParseParam(key, t)
		if err != nil && key == "n" && errors.Is(err, units.ErrTooLarge) {
			// n's own limit, stated as the hint and the engine state it.
			p.errs[key] = fmt.Sprintf("%s must be a whole number %s; got %s", what, k.RangeN(), t)
			return
		}
		if err != nil {
			p.errs[key] = what + ": " + err.Error()
			return
		}
		*dst = v
	}
	count("n", paramMeaning(k, "n"), &params.N, false)
	count("w", "word size", &params.W, false)
	if hasParam(k, "b") {
		count("b", "buckets", &params.Buckets, false)
	}
	from, to := p.s.SweepFrom, p.s.SweepTo
	count("from", "sweep start", &from, true)
	count("to", "sweep end", &to, true)
	if len(p.errs) > 0 {
		return false
	}
	if err := k.Check(params); err != nil {
		var pe *mbram.ParamError
		if errors.As(err, &pe) {
			p.errs[pe.Field] = pe.Msg
		} else {
			p.errs["n"] = err.Error()
		}
		return false
	}
	lo, hi := sweepRange(p.s.Kernel, params.N, from, to)
	if lo >= hi {
		p.errs["to"] = fmt.Sprintf("the sweep must end above its start (%s)", units.FormatCount(lo))
		return false
	}
	p.s.Params, p.s.SweepFrom, p.s.SweepTo = params, from, to
	return true
}

func (p *kernelsPage) onCompare(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if ctx.JSSrc().Get("checked").Bool() {
			p.s.Compare = append(without(p.s.Compare, id), id)
		} else {
			p.s.Compare = without(p.s.Compare, id)
		}
		p.update(ctx)
	}
}

func (p *kernelsPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "share-link")
}

func (p *kernelsPage) onDownload(ctx app.Context, e app.Event) {
	download("memwall-scenario.json", "application/json", p.s.JSON())
}

// onOpenFile reads a scenario file written by "Download as a file": the
// way in for a calculation too large for a link.
func (p *kernelsPage) onOpenFile(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		if err == nil {
			var s scenario.Scenario
			if s, err = scenario.ParseJSON(data); err == nil {
				p.linkMachine = nil
				// A machine that is not exactly one of the library's (same
				// name and numbers) is shown as the file's own.
				s.Machine, p.linkMachine = p.lib.linked(s.Machine)
				p.s, p.errs, p.linkMsgs = s, map[string]string{}, nil
				p.resetText(ctx)
				p.update(ctx)
				p.notice = "Opened " + name + "."
				return
			}
		}
		p.notice = name + ": " + err.Error()
	})
}

func (p *kernelsPage) onSaveLinkMachine(ctx app.Context, e app.Event) {
	switch saved, err := p.lib.saveLinked(ctx, &p.linkMachine, &p.s.Machine); {
	case err != nil:
		p.notice = err.Error()
	case saved:
		p.notice = "Saved to your machines as " + p.s.Machine.Name + "."
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func without(list []string, s string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
