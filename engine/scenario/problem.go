package scenario

import (
	"errors"
	"strings"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// Problem is one bad key of a link or scenario: the key and what is wrong
// with it, in words a user can act on.
type Problem struct {
	Key string
	Msg string
}

func (p Problem) Error() string { return p.Key + ": " + p.Msg }

// Problems lists every problem at once, so a form can mark each field.
type Problems []Problem

func (ps Problems) Error() string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Error()
	}
	return strings.Join(parts, "; ")
}

// Key returns the message for one key, or "".
func (ps Problems) Key(key string) string {
	for _, p := range ps {
		if p.Key == key {
			return p.Msg
		}
	}
	return ""
}

// machineProblems turns a machine validation error into problems keyed by
// the link keys, which are the machine's JSON field names.
func machineProblems(err error) Problems {
	var es machine.Errors
	if errors.As(err, &es) {
		ps := make(Problems, len(es))
		for i, e := range es {
			ps[i] = Problem{Key: e.Field, Msg: e.Msg}
		}
		return ps
	}
	return Problems{{Key: "machine", Msg: err.Error()}}
}

// paramProblem turns a workload error into a problem keyed n, w or b.
func paramProblem(err error) Problem {
	var pe *mbram.ParamError
	if errors.As(err, &pe) {
		return Problem{Key: pe.Param, Msg: pe.Msg}
	}
	return Problem{Key: "n", Msg: err.Error()}
}
