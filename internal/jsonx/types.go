package jsonx

import "encoding/json"

// The token and value types are encoding/json's in both builds
// (goccy/go-json declares them as aliases of encoding/json's), so a value
// decoded by either codec has the same type.
type (
	// Token is what Decoder.Token returns: Delim, bool, float64, Number,
	// string or nil.
	Token = json.Token
	// Delim is one of [ ] { }.
	Delim = json.Delim
	// Number is a number's text, as Decoder.UseNumber decodes it.
	Number = json.Number
	// RawMessage is an undecoded value.
	RawMessage = json.RawMessage
)
