package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// textField is a labelled text input for a quantity with units. The user's
// text is kept as typed (nothing entered is lost); err, when set, is shown
// under the field, tied to it with aria-describedby, and marks it invalid.
type textField struct {
	ID      string // DOM id, also used by the browser tests
	Label   string
	Value   string
	Hint    string // accepted forms, e.g. "8Mi, 2^23, 1e6"
	Err     string
	OnInput app.EventHandler
	Size    int
}

func (f textField) UI() app.UI {
	hintID, errID := f.ID+"-hint", f.ID+"-err"
	describedBy := hintID
	if f.Err != "" {
		describedBy = errID + " " + hintID
	}
	size := f.Size
	if size == 0 {
		size = 12
	}
	in := app.Input().
		ID(f.ID).
		Type("text").
		Value(f.Value).
		Size(size).
		AutoComplete(false).
		Spellcheck(false).
		Attr("autocapitalize", "off").
		Aria("describedby", describedBy).
		OnInput(f.OnInput)
	if f.Err != "" {
		in = in.Aria("invalid", "true").Class("invalid")
	}
	return app.Div().Class("field").Body(
		app.Label().For(f.ID).Text(f.Label),
		in,
		app.If(f.Hint != "", app.Small().ID(hintID).Class("hint").Text(f.Hint)),
		app.If(f.Err != "", app.P().ID(errID).Class("error").Aria("live", "polite").Text(f.Err)),
	)
}

// inputValue reads the value of the element an event came from.
func inputValue(ctx app.Context) string {
	return ctx.JSSrc().Get("value").String()
}

// selectField is a labelled drop-down.
type option struct {
	Value, Label string
	Group        string
}

func selectField(id, label, value string, opts []option, onChange app.EventHandler) app.UI {
	var groups []string
	seen := map[string]bool{}
	for _, o := range opts {
		if !seen[o.Group] {
			seen[o.Group] = true
			groups = append(groups, o.Group)
		}
	}
	render := func(o option) app.UI {
		return app.Option().Value(o.Value).Selected(o.Value == value).Text(o.Label)
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).OnChange(onChange).Body(
			app.Range(groups).Slice(func(gi int) app.UI {
				g := groups[gi]
				var items []app.UI
				for _, o := range opts {
					if o.Group == g {
						items = append(items, render(o))
					}
				}
				if g == "" {
					return app.Range(items).Slice(func(i int) app.UI { return items[i] })
				}
				return app.OptGroup().Label(g).Body(items...)
			}),
		),
	)
}

// formText holds the contents of a form's text fields.
//
// go-app writes an input's value property whenever the value attribute
// changes, and its event handlers run after the key that fired them, so an
// input bound to the typed text loses a key typed between the handler and
// the next render. Here the attribute (shown) changes only when the app sets
// a field, never when the user types; typed text lives in text. set also
// writes the DOM after the render, for a field set back to the attribute
// value it already had.
type formText struct {
	prefix string            // DOM id prefix of the fields
	text   map[string]string // contents, as typed or set
	shown  map[string]string // value attributes
}

// set replaces the contents of the given fields.
func (f *formText) set(ctx app.Context, vals map[string]string) {
	if f.text == nil {
		f.text, f.shown = map[string]string{}, map[string]string{}
	}
	for k, v := range vals {
		f.text[k], f.shown[k] = v, v
	}
	if !app.IsClient || ctx == nil {
		return
	}
	ctx.Defer(func(app.Context) {
		for k, v := range vals {
			if el := app.Window().GetElementByID(f.prefix + k); el.Truthy() && el.Get("value").String() != v {
				el.Set("value", v)
			}
		}
	})
}

// typed records what the user typed in a field.
func (f *formText) typed(key, v string) {
	if f.text == nil {
		f.text, f.shown = map[string]string{}, map[string]string{}
	}
	f.text[key] = v
}

// settle makes what was typed the fields' value attributes. A handler that
// is not a key in the field (Save, Derive) calls it: the render that
// follows may replace the inputs (a notice or a section appearing above
// them shifts go-app's elements), and a new input shows its attribute, so
// without it a refused form snaps back to the values it was opened with.
func (f *formText) settle() {
	for k, v := range f.text {
		f.shown[k] = v
	}
}

// focusFirst moves the focus into a section once it is rendered, on its
// first field, and brings the section into view.
func focusFirst(sectionID string) {
	afterRender(func() {
		sec := app.Window().GetElementByID(sectionID)
		if !sec.Truthy() {
			return
		}
		if in := sec.Call("querySelector", "input, select, textarea"); in.Truthy() {
			in.Call("focus")
		}
		sec.Call("scrollIntoView", map[string]any{"block": "start"})
	})
}

// focusInvalid moves the focus to the first field of a form marked
// invalid, once the form is rendered.
func focusInvalid(formID string) {
	afterRender(func() {
		if in := app.Window().Get("document").Call("querySelector", "#"+formID+" [aria-invalid=\"true\"]"); in.Truthy() {
			in.Call("focus")
		}
	})
}

// afterRender runs fn once the browser has had time to render the update
// the current handler causes. It is a browser timer, not ctx.Defer or
// ctx.After: those are dropped when the element that fired the event is
// replaced by that very render (a form below a section that opens).
func afterRender(fn func()) {
	if !app.IsClient {
		return
	}
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		fn()
		f.Release()
		return nil
	})
	app.Window().Call("setTimeout", f, 80)
}
