package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"memwall/internal/jsonx"
)

// Decode reads data into v. what names the file in errors ("machine file").
// The checks of Check come first.
//
// Decode stays on encoding/json, not jsonx: its files (machine, scenario,
// coefficient and link files) are a few hundred bytes, where no codec's
// speed shows, and its messages are built from encoding/json's
// SyntaxError and UnmarshalTypeError (offset, field path, value kind).
func Decode(data []byte, v any, what string) error {
	data, err := Check(data, what)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return fmt.Errorf("%s: not valid JSON: the text ends before the object is closed", what)
		case errors.As(err, &se):
			return fmt.Errorf("%s: not valid JSON at byte %d: %v", what, se.Offset, err)
		case errors.As(err, &te):
			return fmt.Errorf("%s: field %q has the wrong type (%s)", what, te.Field, te.Value)
		}
		return fmt.Errorf("%s: %v", what, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: text after the JSON object", what)
	}
	return nil
}

// bom is the UTF-8 byte order mark some editors write at the start of a
// file.
var bom = []byte("\xef\xbb\xbf")

// Check is what every JSON file a user gives goes through before it is
// decoded: a leading UTF-8 byte order mark is dropped (the returned data
// starts after it), a key that appears twice in one object is refused with
// the key and its line named (encoding/json would keep the last), and text
// after the top-level array or object is refused. Syntax errors are left
// to the decoder, which names where they are.
//
// Check reads the tokens with jsonx (goccy/go-json in native builds, a few
// times faster than encoding/json's Token on a large data set), whose
// tokens and offsets are encoding/json's (internal/jsonx's tests); its
// messages use no codec error.
func Check(data []byte, what string) ([]byte, error) {
	data = bytes.TrimPrefix(data, bom)
	dec := jsonx.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		keys   map[string]bool // nil for an array
		path   string
		key    string // the last key, in an object
		expKey bool   // an object expects a key next
		index  int    // the next element, in an array
	}
	var stack []*frame
	top := ""
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(off, int64(len(data)))], []byte("\n")) }
	// child is the path of the value about to be read.
	child := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.keys == nil {
			return fmt.Sprintf("%s[%d]", f.path, f.index)
		}
		if f.path == "" {
			return f.key
		}
		return f.path + "." + f.key
	}
	// done records that a value ended in the enclosing container.
	done := func() {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.keys == nil {
			f.index++
		} else {
			f.expKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			// A syntax error, or the end of a truncated text: the decoder
			// reports it.
			return data, nil
		}
		if len(stack) > 0 && stack[len(stack)-1].keys != nil && stack[len(stack)-1].expKey {
			f := stack[len(stack)-1]
			if d, ok := tok.(jsonx.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				done()
			} else if k, ok := tok.(string); ok {
				if f.keys[k] {
					in := "the top-level object"
					if f.path != "" {
						in = fmt.Sprintf("%q", f.path)
					}
					return nil, fmt.Errorf("%s: key %q appears twice in %s (line %d); give each key once", what, k, in, lineAt(dec.InputOffset()))
				}
				f.keys[k] = true
				f.key = k
				f.expKey = false
			}
		} else if d, ok := tok.(jsonx.Delim); ok {
			switch d {
			case '{', '[':
				if len(stack) == 0 && top == "" {
					top = map[jsonx.Delim]string{'{': "object", '[': "array"}[d]
				}
				f := &frame{path: child()}
				if d == '{' {
					f.keys = map[string]bool{}
					f.expKey = true
				}
				stack = append(stack, f)
			case ']', '}':
				stack = stack[:len(stack)-1]
				done()
			}
		} else {
			if len(stack) == 0 && top == "" {
				top = "value"
			}
			done()
		}
		if len(stack) == 0 {
			break
		}
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		rest := bytes.TrimLeft(data[end:], " \t\r\n")
		off := int64(len(data) - len(rest))
		return nil, fmt.Errorf("%s: text after the JSON %s (line %d)", what, top, lineAt(off))
	}
	return data, nil
}
