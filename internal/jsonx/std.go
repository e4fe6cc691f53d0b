//go:build js

package jsonx

import (
	"bytes"
	"encoding/json"
	"io"
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

// Decoder reads JSON values and tokens from a stream.
type Decoder = json.Decoder

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return json.NewDecoder(r) }

// SyntaxError is the codec's syntax error (Offset is where it was found).
type SyntaxError = json.SyntaxError
