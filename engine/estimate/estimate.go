package estimate

import (
	"fmt"
	"math"

	"memwall/engine/field"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// Model names a model, as the CLI's --model flag and JSON output write it.
type Model string

// The models, and Auto for the choice by the machine.
const (
	Auto  Model = "auto"
	MBRAM Model = "mbram"
	Hier  Model = "hier"
)

// Name is the model as a sentence names it.
func (m Model) Name() string {
	switch m {
	case MBRAM:
		return "the MBRAM paper's closed forms"
	case Hier:
		return "the hierarchy model"
	}
	return string(m)
}

// Title is the model as a heading or a label names it, saying what it is.
func (m Model) Title() string {
	switch m {
	case MBRAM:
		return "MBRAM (the paper's model)"
	case Hier:
		return "Hierarchy model"
	}
	return string(m)
}

// What each kind of number is, as said beside it. They are the CLI's words
// too (memwall predict), so a number reads the same everywhere.
const (
	// LowerBoundNote: the paper's model on a machine of one cache level,
	// inside the formula's regime.
	LowerBoundNote = "a lower bound: the model charges nothing for cache hits above the last level, TLB misses or instructions"
	// SeveralLevelsNote: the paper's model on a machine with several
	// levels, where its bound does not hold.
	SeveralLevelsNote = "the paper's one-cache model; a lower bound on the paper's machines, not on one with several cache levels"
	// NotBoundPrefix starts the note of the paper's model outside a
	// formula's regime; the reason follows (mbram.Breakdown.NotBound).
	NotBoundPrefix = "not a bound here: "
	// HierNote: the hierarchy model.
	HierNote = "an estimate: per cache level, with the core's own rate and the branch mispredictions"
)

// ParseModel reads a model choice: auto (or empty), mbram or hier. The
// error names the field "model".
func ParseModel(s string) (Model, error) {
	switch Model(s) {
	case "", Auto:
		return Auto, nil
	case MBRAM, Hier:
		return Model(s), nil
	}
	return "", field.New("model", "%q: want auto, mbram or hier", s)
}

// Choose resolves Auto for m: the hierarchy model when the machine gives
// its cache levels, the paper's for a machine of six numbers. MBRAM and
// Hier are returned as they are.
func Choose(want Model, m machine.Machine) Model {
	if want == MBRAM || want == Hier {
		return want
	}
	if len(m.Levels) > 0 {
		return Hier
	}
	return MBRAM
}

// Prediction is one model's prediction and what kind of number it is.
type Prediction struct {
	Model     Model
	Breakdown mbram.Breakdown
	// Note says what kind of number Breakdown.Seconds is, in one line.
	Note string
	// Bound says the number is a lower bound: the paper's model, inside
	// its formula's regime, on a machine of at most one cache level.
	Bound bool
	// Uncertainty is the share of the time that the calibration's
	// spreads move the hierarchy model's prediction, each parameter by
	// its own (hier.Sensitivity, hier.Uncertainty); 0 for the paper's
	// model and for a machine without spreads.
	Uncertainty float64
}

// Result is the chosen model's prediction and, when it can be computed,
// the other model's, to show beside it.
type Result struct {
	Prediction
	Other *Prediction
}

// Predict predicts kernelID's time for workload p on m by the model want
// (Auto chooses by the machine, see Choose), and by the other model when
// that gives a finite time. The error is the chosen model's: a bad
// machine, kernel or workload, named by its field.
func Predict(m machine.Machine, kernelID string, p mbram.Params, want Model) (Result, error) {
	model := Choose(want, m)
	first, err := By(model, m, kernelID, p)
	if err != nil {
		return Result{}, err
	}
	r := Result{Prediction: first}
	other := Hier
	if model == Hier {
		other = MBRAM
	}
	if o, err := By(other, m, kernelID, p); err == nil {
		r.Other = &o
	}
	return r, nil
}

// By predicts by one model (Auto chooses by the machine).
func By(model Model, m machine.Machine, kernelID string, p mbram.Params) (Prediction, error) {
	model = Choose(model, m)
	if model == Hier {
		b, err := hier.Predict(m, kernelID, p)
		if err == nil {
			err = finite(b.Seconds, kernelID)
		}
		if err != nil {
			return Prediction{}, err
		}
		pr := Prediction{Model: Hier, Breakdown: b, Note: HierNote}
		if _, sh, err := hier.Sensitivity(m, kernelID, p); err == nil {
			pr.Uncertainty = hier.Uncertainty(b.Seconds, sh)
		}
		return pr, nil
	}
	b, err := mbram.Predict(m, kernelID, p)
	if err == nil {
		err = finite(b.Seconds, kernelID)
	}
	if err != nil {
		return Prediction{}, err
	}
	pr := Prediction{Model: MBRAM, Breakdown: b, Note: LowerBoundNote, Bound: true}
	switch {
	case b.NotBound != "":
		pr.Note, pr.Bound = NotBoundPrefix+b.NotBound, false
	case len(m.Levels) > 1:
		// The paper's bound rests on its machines: one cache, no
		// prefetching of independent misses. On a machine with several
		// levels it is neither a bound nor a close estimate.
		pr.Note, pr.Bound = SeveralLevelsNote, false
	}
	return pr, nil
}

// Seconds is the total alone, for sweeps: the MBRAM paper's closed forms
// through their allocation-free path, the hierarchy model without its
// breakdown's text.
func Seconds(model Model, m machine.Machine, kernelID string, p mbram.Params) (float64, error) {
	var s float64
	var err error
	if Choose(model, m) == Hier {
		var e hier.Estimate
		e, err = hier.Model(m, kernelID, p)
		s = e.Seconds
	} else {
		s, err = mbram.Seconds(m, kernelID, p)
	}
	if err != nil {
		return 0, err
	}
	return s, finite(s, kernelID)
}

// Sweep is Seconds for each n of ns, the rest of the workload as p: 0
// where the model gives no positive finite time. The hierarchy model
// validates the machine once for all of them (hier.Sweep).
func Sweep(model Model, m machine.Machine, kernelID string, p mbram.Params, ns []int64) []float64 {
	if Choose(model, m) == Hier {
		ts, err := hier.Sweep(m, kernelID, p, ns)
		if err != nil {
			return make([]float64, len(ns))
		}
		return ts
	}
	ts := make([]float64, len(ns))
	for i, n := range ns {
		q := p
		q.N = n
		if s, err := Seconds(MBRAM, m, kernelID, q); err == nil && s > 0 {
			ts[i] = s
		}
	}
	return ts
}

// finite refuses a time that is not a finite non-negative number; both
// models already do, and this keeps a NaN from any future form off a page.
func finite(s float64, kernelID string) error {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return fmt.Errorf("%s: the prediction is %g s; the workload is outside what the model covers", kernelID, s)
	}
	return nil
}
