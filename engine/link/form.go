package link

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"memwall/engine/field"
	"memwall/internal/strictjson"
)

// Inputs are a scenario as text, key by key: what a form's fields show, what
// a link carries and what a scenario file holds. Keeping the text (not the
// parsed numbers) lets "8Mi" come back as "8Mi".
type Inputs map[string]string

// Clone returns a copy that can be changed without changing in.
func (in Inputs) Clone() Inputs {
	out := make(Inputs, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// Form describes one model's inputs: the model's name, its keys in the
// order links write them, and its defaults. A model's package declares its
// Form beside the function that parses its Inputs, so the page, the link,
// the scenario file and the CLI read the same keys the same way.
type Form struct {
	// Model names the model in scenario files ("communication").
	Model string
	// Keys are the keys in link order.
	Keys []string
	// Defaults returns the inputs of a fresh page.
	Defaults func() Inputs
	// Skip reports whether a key is left out of links and files for these
	// inputs (a column's keys when rows are sent); nil writes every key.
	Skip func(in Inputs, key string) bool
	// Fill returns the inputs of a link or file that gives vals, when
	// they are more than vals over the defaults (a key whose default
	// depends on another); nil overlays vals on Defaults.
	Fill func(vals Inputs) Inputs
}

// fill is Fill, or vals over the defaults.
func (f Form) fill(vals Inputs) Inputs {
	if f.Fill != nil {
		return f.Fill(vals)
	}
	in := f.Defaults()
	for k, v := range vals {
		in[k] = v
	}
	return in
}

// Read reads a link's fragment over the defaults. It never fails outright:
// every good key is used and every other one is a problem.
func (f Form) Read(fragment string) (Inputs, field.Errors) {
	vals, es := Read(fragment, f.Keys)
	return f.fill(vals), es
}

// Fragment writes the inputs as a link fragment, in key order, leaving out
// empty values and skipped keys.
func (f Form) Fragment(in Inputs) (string, error) {
	var b Builder
	for _, k := range f.Keys {
		if f.Skip != nil && f.Skip(in, k) {
			continue
		}
		b.Add(k, in[k])
	}
	return b.Fragment()
}

// fileVersion is the version of the scenario file format.
const fileVersion = 1

// JSON writes the inputs as a scenario file: the model's name and its
// inputs in key order, indented, so a person can read and edit it.
func (f Form) JSON(in Inputs) []byte {
	var b bytes.Buffer
	q := func(s string) []byte { v, _ := json.Marshal(s); return v }
	fmt.Fprintf(&b, "{\n  \"model\": %s,\n  \"version\": %d,\n  \"inputs\": {", q(f.Model), fileVersion)
	first := true
	for _, k := range f.Keys {
		if f.Skip != nil && f.Skip(in, k) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "\n    %s: %s", q(k), q(in[k]))
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes()
}

// MaxFile bounds a scenario file; a real one is under a kilobyte.
const MaxFile = 64 << 10

// ParseJSON reads a scenario file written by JSON over the defaults. Keys
// the file leaves out keep their defaults; a file of another model, an
// unknown key or a value that is not text is refused.
func (f Form) ParseJSON(data []byte) (Inputs, error) {
	what := f.Model + " scenario file"
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d accepted", what, len(data), MaxFile)
	}
	var doc struct {
		Model   string            `json:"model"`
		Version int               `json:"version"`
		Inputs  map[string]string `json:"inputs"`
	}
	if err := strictjson.Decode(data, &doc, what); err != nil {
		return nil, err
	}
	if doc.Model != f.Model {
		return nil, &field.Error{Field: "model", Msg: fmt.Sprintf("this file is a %q scenario; a %q scenario is needed here", clipText(doc.Model), f.Model)}
	}
	if doc.Version > fileVersion {
		return nil, &field.Error{Field: "version", Msg: fmt.Sprintf("version %d was written by a newer memwall; this one reads version %d", doc.Version, fileVersion)}
	}
	vals := Inputs{}
	var es field.Errors
	for k, v := range doc.Inputs {
		switch {
		case !slices.Contains(f.Keys, k):
			es = append(es, *Unknown(k, f.Keys))
		case len(v) > MaxValue || !plainText(v):
			es = append(es, field.Error{Field: k, Msg: fmt.Sprintf("the value must be text of at most %d characters without control characters", MaxValue)})
		default:
			vals[k] = v
		}
	}
	if len(es) > 0 {
		return nil, es
	}
	return f.fill(vals), nil
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
