package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/lang"
)

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

func (p *programPage) onMissCurve(ctx app.Context, e app.Event) {
	p.s.MissCurve = ctx.JSSrc().Get("checked").Bool()
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
			s.Machine, p.linkMachine = p.lib.linked(s.Machine)
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
	switch saved, err := p.lib.saveLinked(ctx, &p.linkMachine, &p.s.Machine); {
	case err != nil:
		p.notice = err.Error()
	case saved:
		p.notice = "Saved to your machines as " + p.s.Machine.Name + "."
	}
}
