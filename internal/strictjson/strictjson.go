package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Decode reads data into v. what names the file in errors ("machine file").
func Decode(data []byte, v any, what string) error {
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
