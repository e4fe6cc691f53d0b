package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// download offers content as a file: a Blob behind a temporary object URL,
// clicked through a detached anchor. Nothing is sent anywhere.
func download(filename, mime string, content []byte) {
	if !app.IsClient {
		return
	}
	w := app.Window()
	arr := w.Get("Uint8Array").New(len(content))
	app.CopyBytesToJS(arr, content)
	// The parts array is built in JavaScript: go-app converts app.Value
	// arguments at the top level only, and one nested in a []any panics.
	parts := w.Get("Array").New()
	parts.Call("push", arr)
	blob := w.Get("Blob").New(parts, map[string]any{"type": mime})
	url := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", filename)
	a.Call("click")
	// Revoked later: revoking at once can cancel the download before the
	// browser has read the blob. The callback is the native function bound
	// to its URL: building one from a string would be eval, which the
	// site's Content-Security-Policy refuses.
	urls := w.Get("URL")
	w.Call("setTimeout", urls.Get("revokeObjectURL").Call("bind", urls, url), 60000)
}

// maxUpload bounds a file the user picks: machine and scenario files are a
// few kilobytes, and reading a 500 MB file into the page would freeze it.
const maxUpload = 1 << 20

// readPickedFile reads the file chosen in the <input type=file> that fired
// the event and calls done on the UI goroutine with its bytes or an error.
// It checks the size before reading anything.
func readPickedFile(ctx app.Context, done func(ctx app.Context, name string, data []byte, err error)) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	size := file.Get("size").Int()
	input.Set("value", "") // picking the same file again fires change again
	if size > maxUpload {
		done(ctx, name, nil, fmt.Errorf("%s is %s; files up to %d KiB are accepted", name, humanBytes(size), maxUpload>>10))
		return
	}
	var onText, onErr app.Func
	release := func() { onText.Release(); onErr.Release() }
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, name, []byte(text), nil) })
		release()
		return nil
	})
	onErr = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := args[0].Call("toString").String()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, name, nil, fmt.Errorf("reading %s failed: %s", name, msg)) })
		release()
		return nil
	})
	file.Call("text").Call("then", onText).Call("catch", onErr)
}

// copyText puts text on the clipboard; it reports false where the browser
// refuses (no clipboard API outside secure contexts).
func copyText(text string) bool {
	if !app.IsClient {
		return false
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return false
	}
	clip.Call("writeText", text)
	return true
}

// copyLink copies a share link and returns the notice to show; where the
// browser refuses, it selects the link's text field (id) for the user to
// copy.
func copyLink(link, id string) string {
	if copyText(link) {
		return "Link copied."
	}
	app.Window().GetElementByID(id).Call("select")
	return "Select the link and copy it (this browser does not allow copying from here)."
}
