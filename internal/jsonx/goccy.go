//go:build !js

package jsonx

import json "github.com/goccy/go-json"

// Marshal encodes v.
func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// MarshalIndent encodes v with two-space indentation, leaving < > & as they
// are: the output is read by people and programs, never embedded in HTML.
func MarshalIndent(v any) ([]byte, error) {
	return json.MarshalIndentWithOption(v, "", "  ", json.DisableHTMLEscape())
}

// Unmarshal decodes data into v.
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Codec names the implementation in use, for size reports and tests.
const Codec = "goccy/go-json"
