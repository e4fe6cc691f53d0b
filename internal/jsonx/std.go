//go:build js

package jsonx

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v.
func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// MarshalIndent encodes v with two-space indentation, leaving < > & as they
// are (the same output as the native build).
func MarshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Unmarshal decodes data into v.
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Codec names the implementation in use, for size reports and tests.
const Codec = "encoding/json"
