//go:build !js

package jsonx

import (
	"io"

	json "github.com/goccy/go-json"
)

// Marshal encodes v.
func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// MarshalIndent encodes v with two-space indentation, leaving < > & as they
// are: the output is read by people and programs, never embedded in HTML.
func MarshalIndent(v any) ([]byte, error) {
	return json.MarshalIndentWithOption(v, "", "  ", json.DisableHTMLEscape())
}

// Unmarshal decodes data into v.
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Decoder reads JSON values and tokens from a stream: Token, More,
// InputOffset, UseNumber, DisallowUnknownFields and Decode, with the
// tokens and offsets of encoding/json's Decoder (jsonx_test checks them).
type Decoder = json.Decoder

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return json.NewDecoder(r) }

// SyntaxError is the codec's syntax error (Offset is where it was found).
// goccy/go-json has its own type, not encoding/json's: match errors with
// errors.As on this type.
type SyntaxError = json.SyntaxError
