package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/presets"
)

// storageKey holds the user's machines in localStorage as an array of
// machine files (the JSON of machine.Machine.JSON). Reading them back goes
// through machine.ParseJSON, the same path as an imported file, so a stored
// machine is validated exactly like one typed in or imported.
const storageKey = "memwall.machines.v1"

// userPrefix starts the id of every machine the user makes, so it can never
// take a preset's id.
const userPrefix = "my-"

// library is the preset machines followed by the user's own.
type library struct {
	Presets []machine.Machine
	User    []machine.Machine
	// Problems names stored machines that no longer validate; they are
	// kept out of the library but left in storage until the user saves.
	Problems []string
}

func loadLibrary(ctx app.Context) library {
	lib := library{Presets: presets.Machines()}
	var raws []json.RawMessage
	if err := ctx.LocalStorage().Get(storageKey, &raws); err != nil {
		lib.Problems = append(lib.Problems, "your saved machines could not be read: "+err.Error())
		return lib
	}
	for i, r := range raws {
		m, err := machine.ParseJSON(r)
		if err != nil {
			lib.Problems = append(lib.Problems, fmt.Sprintf("saved machine %d was skipped: %v", i+1, err))
			continue
		}
		lib.User = append(lib.User, m)
	}
	return lib
}

func (l library) save(ctx app.Context) error {
	raws := make([]json.RawMessage, len(l.User))
	for i, m := range l.User {
		raws[i] = m.JSON()
	}
	if err := ctx.LocalStorage().Set(storageKey, raws); err != nil {
		return fmt.Errorf("saving in this browser failed (storage full or disabled?): %v", err)
	}
	return nil
}

// find returns the machine with this id, preset or user's.
func (l library) find(id string) (machine.Machine, bool) {
	for _, m := range l.Presets {
		if m.ID == id {
			return m, true
		}
	}
	for _, m := range l.User {
		if m.ID == id {
			return m, true
		}
	}
	return machine.Machine{}, false
}

// match returns the library machine with the same name and numbers as m,
// so a machine that came inline in a link is shown as the user's own.
func (l library) match(m machine.Machine) (machine.Machine, bool) {
	for _, c := range append(append([]machine.Machine(nil), l.Presets...), l.User...) {
		if c.Name == m.Name && c.SameParameters(m) {
			return c, true
		}
	}
	return machine.Machine{}, false
}

// linked is what a page shows of a machine that came in a link or a file:
// the library's own when it has one of the same name and numbers, else the
// machine itself without an id, which is also returned for the page to
// offer to save.
func (l library) linked(m machine.Machine) (machine.Machine, *machine.Machine) {
	if c, ok := l.match(m); ok {
		return c, nil
	}
	m.ID = ""
	return m, &m
}

// saveLinked puts the machine that came in a link (*linked, if any) into
// the user's machines and saves them. Once saved, *into becomes the machine
// with its new id and *linked is cleared; it reports whether a machine was
// saved.
func (l *library) saveLinked(ctx app.Context, linked **machine.Machine, into *machine.Machine) (bool, error) {
	if *linked == nil {
		return false, nil
	}
	m := l.put(**linked)
	if err := l.save(ctx); err != nil {
		return false, err
	}
	*linked, *into = nil, m
	return true, nil
}

// put adds or replaces a user machine, giving it an id if it has none.
func (l *library) put(m machine.Machine) machine.Machine {
	if !strings.HasPrefix(m.ID, userPrefix) {
		m.ID = l.freshID(m.Name)
	}
	for i := range l.User {
		if l.User[i].ID == m.ID {
			l.User[i] = m
			return m
		}
	}
	l.User = append(l.User, m)
	return m
}

func (l *library) remove(id string) {
	for i := range l.User {
		if l.User[i].ID == id {
			l.User = append(l.User[:i], l.User[i+1:]...)
			return
		}
	}
}

// freshID makes "my-" plus a slug of the name, unique in the library.
func (l library) freshID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" {
		slug = "machine"
	}
	id := userPrefix + slug
	for n := 2; ; n++ {
		if _, taken := l.find(id); !taken {
			return id
		}
		id = fmt.Sprintf("%s%s-%d", userPrefix, slug, n)
	}
}

// parseMachines reads a machine file: one machine object or an array of
// them. It returns the good machines and one message per bad one.
func parseMachines(data []byte) ([]machine.Machine, []string) {
	trimmed := strings.TrimSpace(string(data))
	if !strings.HasPrefix(trimmed, "[") {
		m, err := machine.ParseJSON(data)
		if err != nil {
			return nil, []string{err.Error()}
		}
		return []machine.Machine{m}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, []string{"not a JSON array of machines: " + err.Error()}
	}
	var good []machine.Machine
	var bad []string
	for i, r := range raws {
		m, err := machine.ParseJSON(r)
		if err != nil {
			bad = append(bad, fmt.Sprintf("machine %d: %v", i+1, err))
			continue
		}
		good = append(good, m)
	}
	if len(raws) == 0 {
		bad = append(bad, "the file holds an empty list")
	}
	return good, bad
}

// machinesFile writes machines as a JSON array in machine-file form.
func machinesFile(ms []machine.Machine) []byte {
	var b strings.Builder
	b.WriteString("[\n")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(strings.TrimSpace(string(m.JSON())))
	}
	b.WriteString("\n]\n")
	return []byte(b.String())
}

// options lists the library for a machine menu: presets, then the user's
// machines, then a machine that came with a link (or file) and is not
// saved, under the group name linkGroup.
func (l library) options(link *machine.Machine, linkGroup string) []option {
	var opts []option
	for _, m := range l.Presets {
		opts = append(opts, option{Value: m.ID, Label: menuLabel(m.Name), Group: "Presets"})
	}
	for _, m := range l.User {
		opts = append(opts, option{Value: m.ID, Label: menuLabel(m.Name), Group: "My machines"})
	}
	if link != nil {
		opts = append(opts, option{Value: "link", Label: menuLabel(link.Name) + " (not saved)", Group: linkGroup})
	}
	return opts
}

// menuMax is the longest machine name a menu shows whole: a phone's
// select is about that wide, and cuts a longer name at its edge.
const menuMax = 34

// menuLabel is a machine's name for a menu: whole when short, else cut
// before its parenthesis, or at a word before menuMax characters, with
// "…"; the summary under the menu shows the whole name.
func menuLabel(name string) string {
	r := []rune(name)
	if len(r) <= menuMax {
		return name
	}
	if i := strings.Index(name, " ("); i > 0 && len([]rune(name[:i])) <= menuMax {
		return name[:i] + " (…)"
	}
	cut := string(r[:menuMax-1])
	if i := strings.LastIndex(cut, " "); i > menuMax/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,/(-") + "…"
}

// chosen is the machine a menu value picks: the machine that came with a
// link (or file) for "link", else the library's machine of that id.
func (l library) chosen(value string, link *machine.Machine) (machine.Machine, bool) {
	if value == "link" && link != nil {
		return *link, true
	}
	return l.find(value)
}

// menuValue is the machine menu's value for m: its id, or "link" for a
// machine without one (it came inline with a link).
func menuValue(m machine.Machine) string {
	if m.ID == "" {
		return "link"
	}
	return m.ID
}

// machineSummary shows the machine's parameters as the paper writes them.
func machineSummary(m machine.Machine) app.UI {
	row := func(term, def, title string) app.UI {
		// The meaning is written out, not left to a hover title: touch
		// screens have no hover.
		return app.Div().Body(app.Dt().Text(term), app.Dd().Body(app.Text(def), app.Small().Class("meaning").Text(title)))
	}
	return app.Div().Class("machine-summary").Body(
		app.If(menuLabel(m.Name) != m.Name, app.P().Class("machine-name").Text(m.Name)),
		app.Dl().Class("params").Body(
			row("β1", units.FormatBandwidth(m.Beta1), "sequential bandwidth"),
			row("β2", units.FormatBandwidth(m.Beta2), "random-access bandwidth"),
			row("μ1", strconv.Itoa(m.Mu1), "concurrent sequential streams"),
			row("C", units.FormatSize(m.C), "largest cache"),
			row("B", units.FormatSize(m.B), "cache line"),
			row("m", units.FormatSeconds(m.M), "branch-misprediction penalty"),
		),
		app.If(m.Source != "", app.P().Class("source").Text("Source: "+m.Source)),
	)
}
