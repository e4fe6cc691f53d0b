package field

import (
	"errors"
	"fmt"
	"strings"
)

// Error is one input that is wrong: its name and what is accepted.
type Error struct {
	Field string // the input's name: a link key, a JSON field, a flag
	Msg   string // what is wrong and what is accepted
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

// New returns an Error for field with a formatted message.
func New(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Errors lists every bad input at once, so a form can mark each field.
type Errors []Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i := range es {
		parts[i] = es[i].Error()
	}
	return strings.Join(parts, "; ")
}

// Add appends an error for field with a formatted message, for a
// validator that collects every bad field.
func (es *Errors) Add(field, format string, args ...any) {
	*es = append(*es, Error{Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Field returns the message for one input, or "" when it has none.
func (es Errors) Field(name string) string {
	for _, e := range es {
		if e.Field == name {
			return e.Msg
		}
	}
	return ""
}

// Err returns es as an error, or nil when it is empty, so that a function
// can collect into an Errors and return it without a typed nil.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// From turns any error into Errors: a list is returned as it is, one Error
// as a list of one, and any other error as one Error named fallback.
func From(err error, fallback string) Errors {
	if err == nil {
		return nil
	}
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var e *Error
	if errors.As(err, &e) {
		return Errors{*e}
	}
	return Errors{{Field: fallback, Msg: err.Error()}}
}
