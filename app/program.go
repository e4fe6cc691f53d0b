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
		if mm, ok := p.lib.match(s.Machine); ok {
			s.Machine = mm
		} else {
			mm := s.Machine
			p.linkMachine = &mm
		}
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

func (p *programPage) onSource(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		v := inputValue(ctx)
		p.src.typed(key, v)
		if key == "a" {
			p.s.Source = v
			p.example = exampleOf(v)
			if e, ok := lang.LookupExample(p.example); ok {
				p.s.Kernel = e.Kernel
			} else {
				p.s.Kernel = ""
			}
		} else {
			p.s.Compare = v
		}
		params := p.paramNames()
		p.compile()
		if p.paramNames() != params {
			p.resetFields(ctx)
		}
		p.update(ctx)
	}
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

func (p *programPage) onExample(ctx app.Context, e app.Event) {
	ex, ok := lang.LookupExample(inputValue(ctx))
	if !ok {
		return
	}
	p.stop()
	p.view = nil
	p.example, p.s.Source, p.s.Kernel, p.s.Params = ex.ID, ex.Source, ex.Kernel, nil
	p.src.set(ctx, map[string]string{"a": ex.Source})
	p.compile()
	p.resetFields(ctx)
	p.update(ctx)
}

func (p *programPage) onCompareExample(ctx app.Context, e app.Event) {
	ex, ok := lang.LookupExample(inputValue(ctx))
	if !ok {
		return
	}
	p.s.Compare = ex.Source
	p.src.set(ctx, map[string]string{"b": ex.Source})
	p.compile()
	p.update(ctx)
}

func (p *programPage) onField(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.form.typed(key, inputValue(ctx))
		p.update(ctx)
	}
}

func (p *programPage) onMachine(ctx app.Context, e app.Event) {
	if m, ok := p.lib.chosen(inputValue(ctx), p.linkMachine); ok {
		p.s.Machine = m
		p.update(ctx)
	}
}

func (p *programPage) onPredictor(ctx app.Context, e app.Event) {
	p.s.Predictor = inputValue(ctx)
	p.update(ctx)
}

func (p *programPage) onBranches(ctx app.Context, e app.Event) {
	p.s.Branches = inputValue(ctx)
	p.update(ctx)
}

func (p *programPage) onToggleAB(ctx app.Context, e app.Event) {
	p.abOpen = !p.abOpen
	if p.abOpen && p.s.Compare == "" {
		ex, _ := lang.LookupExample("perm-twopass")
		if p.example == "perm-twopass" {
			ex, _ = lang.LookupExample("perm")
		}
		p.s.Compare = ex.Source
		p.src.set(ctx, map[string]string{"b": ex.Source})
	}
	if !p.abOpen {
		p.s.Compare = ""
	}
	p.compile()
	p.update(ctx)
}

// onScroll keeps an editor's line numbers beside its lines.
func (p *programPage) onScroll(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		top := ctx.JSSrc().Get("scrollTop")
		if g := app.Window().GetElementByID("gutter-" + key); g.Truthy() {
			g.Set("scrollTop", top)
		}
	}
}

// onGoToError puts the caret at the error's position.
func (p *programPage) onGoToError(key string, pos lang.Pos) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		el := app.Window().GetElementByID("src-" + key)
		if !el.Truthy() {
			return
		}
		text := p.src.text[key]
		off := offsetOf(text, pos)
		el.Call("focus")
		el.Call("setSelectionRange", off, off+1)
	}
}

// offsetOf is the UTF-16 offset of a line:column in text (a textarea's
// selection counts UTF-16 code units).
func offsetOf(text string, pos lang.Pos) int {
	line, col, off := 1, 1, 0
	for _, r := range text {
		if line == pos.Line && col == pos.Col {
			return off
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		off++
		if r > 0xFFFF {
			off++
		}
	}
	return off
}

func (p *programPage) onCopy(ctx app.Context, e app.Event) {
	p.notice = copyLink(p.share, "share-link")
}

func (p *programPage) onDownload(ctx app.Context, e app.Event) {
	if !p.params() {
		p.notice = "Fix the marked fields first."
		return
	}
	download("memwall-program.json", "application/json", p.s.JSON())
}

func (p *programPage) onDownloadSource(ctx app.Context, e app.Event) {
	download("program.mw", "text/plain", []byte(p.s.Source))
}

// onOpenFile reads a scenario file, or a program's source.
func (p *programPage) onOpenFile(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		if err != nil {
			p.notice = name + ": " + err.Error()
			return
		}
		s := p.s
		if strings.HasSuffix(strings.ToLower(name), ".json") {
			got, err := lang.ParseJSON(data)
			if err != nil {
				p.notice = name + ": " + err.Error()
				return
			}
			s = got
			if m, ok := p.lib.match(s.Machine); ok {
				s.Machine = m
				p.linkMachine = nil
			} else {
				m := s.Machine
				m.ID = ""
				s.Machine, p.linkMachine = m, &m
			}
		} else {
			s.Source, s.Params = string(data), nil
		}
		p.stop()
		p.view = nil
		p.s, p.errs, p.links = s, map[string]string{}, nil
		p.example = exampleOf(s.Source)
		p.abOpen = s.Compare != ""
		p.src.set(ctx, map[string]string{"a": s.Source, "b": s.Compare})
		p.compile()
		p.resetFields(ctx)
		p.update(ctx)
		p.notice = "Opened " + name + "."
	})
}

func (p *programPage) onSaveLinkMachine(ctx app.Context, e app.Event) {
	if p.linkMachine == nil {
		return
	}
	m := p.lib.put(*p.linkMachine)
	if err := p.lib.save(ctx); err != nil {
		p.notice = err.Error()
		return
	}
	p.linkMachine = nil
	p.s.Machine = m
	p.notice = "Saved to your machines as " + m.Name + "."
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
