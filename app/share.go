package app

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/field"
	"memwall/engine/link"
)

// messages turns a link's problems into the lines a page shows above its
// form. A problem of the link as a whole is shown without its key.
func messages(es field.Errors) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		if e.Field == link.Field {
			out = append(out, e.Msg)
		} else {
			out = append(out, e.Error())
		}
	}
	return out
}

// downloadButton offers a page's inputs as a scenario file: the CLI reads
// the same file with --scenario.
func downloadButton(id string, onClick app.EventHandler) app.UI {
	return app.Button().ID(id).Type("button").Text("Download as a file (JSON)").OnClick(onClick)
}

// linkRow is a page's share link in a read-only field (inputID), where the
// user can select it, with the button that copies it (buttonID) and more
// buttons, if any; label names the field for screen readers.
func linkRow(inputID, buttonID, label, link string, onCopy app.EventHandler, more ...app.UI) app.UI {
	return app.Div().Class("row").Body(append([]app.UI{
		app.Label().For(inputID).Class("visually-hidden").Text(label),
		app.Input().ID(inputID).Type("text").ReadOnly(true).Value(link).Class("link"),
		app.Button().ID(buttonID).Type("button").Text("Copy link").OnClick(onCopy),
	}, more...)...)
}
