package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/lang"
	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/presets"
)

// programPage is where a user writes an algorithm in memwall's pseudo-code
// language (engine/lang), runs it through the simulator with a per-line
// profile, predicts it at any size, and compares two programs over the
// size. Its whole state is a lang.Scenario, which the share link carries.
type programPage struct {
	app.Compo

	lib         library
	linkMachine *machine.Machine

	s       lang.Scenario
	example string // the example menu's value ("" when edited)
	prog    *lang.Program
	compErr *lang.Error // the program's compile error, if any
	cmpProg *lang.Program
	cmpErr  *lang.Error
	abOpen  bool

	src    formText // the editors' text (keys "a" and "b")
	form   formText // params and the other fields
	errs   map[string]string
	links  []string
	notice string

	share, shareErr string

	job  job
	view *programView
}

// progDefaultExample opens the page: the paper's Fig. 1 loop.
const progDefaultExample = "perm"

func (p *programPage) OnPreRender(ctx app.Context) { p.init(ctx, "") }

func (p *programPage) OnNav(ctx app.Context) {
	p.stop()
	p.view = nil
	frag := pageFragment(ctx)
	p.init(ctx, frag)
	p.shareLink(ctx)
	if frag != "" && len(p.links) == 0 && p.prog != nil && p.small() {
		p.startRun(ctx)
	}
}

func (p *programPage) OnDismount() { p.stop() }

func (p *programPage) init(ctx app.Context, fragment string) {
	pageHead(ctx, "Program", "Write an algorithm in pseudo-code and see how long it takes on any machine, line by line, at any size.")
	p.lib = loadLibrary(ctx)
	m, _ := presets.Machine("p4-2.66-ddr266")
	ex, _ := lang.LookupExample(progDefaultExample)
	base := lang.Scenario{Machine: m, Source: ex.Source, Seed: 1, Predictor: "majority", Branches: "all", Kernel: ex.Kernel}
	p.example = ex.ID
	p.links = nil
	s := base
	if fragment != "" {
		var ps []string
		got, problems := lang.ParseFragment(fragment, base, presets.Machine)
		for _, pr := range problems {
			ps = append(ps, pr.Error())
		}
		s, p.links = got, ps
		p.example = exampleOf(s.Source)
	}
	p.linkMachine = nil
	if s.Machine.ID == "" {
		s.Machine, p.linkMachine = p.lib.linked(s.Machine)
	}
	p.s = s
	p.abOpen = s.Compare != ""
	p.errs = map[string]string{}
	p.src.prefix = "src-"
	p.src.set(ctx, map[string]string{"a": s.Source, "b": s.Compare})
	p.compile()
	p.resetFields(ctx)
}

// exampleOf names the example a source is, "" when none.
func exampleOf(src string) string {
	for _, e := range lang.Examples() {
		if e.Source == src {
			return e.ID
		}
	}
	return ""
}

// small says whether the program's run at its current size is short
// enough to start by itself when a link opens.
func (p *programPage) small() bool {
	for _, d := range p.prog.Params {
		v := d.Default
		if x, ok := p.s.Params[d.Name]; ok {
			v = x
		}
		if v > 1<<16 {
			return false
		}
	}
	return true
}

// compile checks both programs and keeps the params that still exist.
func (p *programPage) compile() {
	p.prog, p.compErr = compileOrErr(p.s.Source)
	p.cmpProg, p.cmpErr = nil, nil
	if p.s.Compare != "" {
		p.cmpProg, p.cmpErr = compileOrErr(p.s.Compare)
	}
}

func compileOrErr(src string) (*lang.Program, *lang.Error) {
	prog, err := lang.Compile(src)
	if err != nil {
		var le *lang.Error
		if errors.As(err, &le) {
			return nil, le
		}
		return nil, &lang.Error{Pos: lang.Pos{Line: 1, Col: 1}, Msg: err.Error()}
	}
	return prog, nil
}

// resetFields writes the fields from the scenario.
func (p *programPage) resetFields(ctx app.Context) {
	p.form.prefix = "f-"
	vals := map[string]string{"seed": fmt.Sprint(p.s.Seed), "at": "", "from": "2^10", "to": "2^20"}
	if p.s.At > 0 {
		vals["at"] = units.FormatCount(p.s.At)
	}
	if p.prog != nil {
		for _, d := range p.prog.Params {
			v := d.Default
			if x, ok := p.s.Params[d.Name]; ok {
				v = x
			}
			vals["p-"+d.Name] = units.FormatCount(v)
		}
	}
	p.form.set(ctx, vals)
}

// params reads the param fields into the scenario; false when one is bad.
func (p *programPage) params() bool {
	ok := true
	p.s.Params = map[string]int64{}
	if p.prog == nil {
		return false
	}
	for _, d := range p.prog.Params {
		key := "p-" + d.Name
		text, typed := p.form.text[key]
		if !typed {
			text = units.FormatCount(d.Default)
		}
		v, err := units.ParseCount(strings.TrimSpace(text))
		if err != nil {
			p.errs[key] = err.Error()
			ok = false
			continue
		}
		delete(p.errs, key)
		if v != d.Default {
			p.s.Params[d.Name] = v
		}
	}
	seed, err := units.ParseCount(strings.TrimSpace(p.form.text["seed"]))
	if err != nil {
		p.errs["seed"] = err.Error()
		ok = false
	} else {
		delete(p.errs, "seed")
		p.s.Seed = uint64(seed)
	}
	return ok
}

// update writes the link after an edit.
func (p *programPage) update(ctx app.Context) {
	p.notice = ""
	if p.params() {
		if u := p.shareLink(ctx); u != nil {
			ctx.Page().ReplaceURL(u)
		}
	}
}

func (p *programPage) shareLink(ctx app.Context) *url.URL {
	frag, err := p.s.Fragment(presets.Machine)
	u, msg := shareURL(ctx, frag, err)
	p.share, p.shareErr = "", msg
	if u != nil {
		p.share = u.String()
	}
	return u
}

func (p *programPage) paramNames() string {
	if p.prog == nil {
		return ""
	}
	var names []string
	for _, d := range p.prog.Params {
		names = append(names, d.Name)
	}
	return strings.Join(names, ",")
}

func exampleOptions(none string) []option {
	opts := []option{}
	if none != "" {
		opts = append(opts, option{Value: "", Label: none})
	}
	for _, e := range lang.Examples() {
		g := "Programs users try first"
		if e.Kernel != "" {
			g = "The built-in kernels"
		}
		opts = append(opts, option{Value: e.ID, Label: e.Title, Group: g})
	}
	return opts
}
