package scenario

import (
	"errors"
	"memwall/engine/field"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// Problem is one bad key of a link or scenario: the key and what is wrong
// with it, in words a user can act on.
type Problem = field.Error

// Problems lists every problem at once, so a form can mark each field.
type Problems = field.Errors

// machineProblems turns a machine validation error into problems keyed by
// the link keys, which are the machine's JSON field names.
func machineProblems(err error) Problems {
	var es machine.Errors
	if errors.As(err, &es) {
		ps := make(Problems, len(es))
		for i, e := range es {
			ps[i] = Problem{Field: e.Field, Msg: e.Msg}
		}
		return ps
	}
	return Problems{{Field: "machine", Msg: err.Error()}}
}

// paramProblem turns a workload error into a problem keyed n, w or b.
func paramProblem(err error) Problem {
	var pe *mbram.ParamError
	if errors.As(err, &pe) {
		return Problem{Field: pe.Field, Msg: pe.Msg}
	}
	return Problem{Field: "n", Msg: err.Error()}
}
