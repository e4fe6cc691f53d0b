package main

import (
	"errors"
	"fmt"
	"io"

	"memwall/engine/estimate"
	"memwall/engine/field"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

func init() {
	register(command{name: "predict", summary: "predict a kernel's running time from the MBRAM closed forms", run: runPredict})
}

// lowerBoundNote is said wherever a prediction of the paper's model is
// shown (docs/readings.md).
const lowerBoundNote = estimate.LowerBoundNote

func runPredict(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("predict", "--machine ID|FILE.json --kernel ID [--set name=value]... [--model auto|mbram|hier] [--json]", stderr)
	machineArg := fs.String("machine", "", "preset id or machine JSON file")
	kernelID := fs.String("kernel", "", "kernel id (see 'memwall kernels')")
	var sets setFlags
	fs.Var(&sets, "set", "workload parameter name=value: n (elements or matrix dimension), w (word bytes), b (buckets); repeatable")
	asJSON := fs.Bool("json", false, "print the breakdown as JSON")
	modelArg := fs.String("model", "auto", "auto (the hierarchy model when the machine has cache levels, else the paper's), mbram (the MBRAM paper's closed forms) or hier (the hierarchy model)")
	inputs := addInputFlags(fs, "Kernels")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	var m machine.Machine
	var k mbram.Kernel
	var p mbram.Params
	if inputs.given() {
		s, err := inputs.kernels()
		if err != nil {
			return fail(stderr, "predict", err)
		}
		m, k, p = s.Machine, mustKernel(s.Kernel), s.Params
	} else {
		var err error
		if m, err = loadMachine(*machineArg); err != nil {
			return fail(stderr, "predict", err)
		}
		var ok bool
		if k, ok = mbram.Lookup(*kernelID); !ok {
			return fail(stderr, "predict", mbram.ErrUnknownKernel(*kernelID))
		}
		p = defaultParams(k)
		if err := parseSets(sets, &p); err != nil {
			return fail(stderr, "predict", err)
		}
	}
	want, err := estimate.ParseModel(*modelArg)
	if err != nil {
		return fail(stderr, "predict", modelFlagError(err))
	}
	r, err := estimate.Predict(m, k.ID, p, want)
	if err != nil {
		return fail(stderr, "predict", err)
	}
	b := r.Breakdown
	if *asJSON {
		out := struct {
			mbram.Breakdown
			Model   string       `json:"model"`
			Machine string       `json:"machine"`
			Params  mbram.Params `json:"params"`
			Note    string       `json:"note"`
			// The share of the time the calibration's spreads move
			// it (estimate.Prediction.Uncertainty).
			Uncertainty float64     `json:"uncertainty,omitempty"`
			Other       *otherModel `json:"other_model,omitempty"`
		}{b, string(r.Model), m.ID, p, r.Note, r.Uncertainty, nil}
		if o := r.Other; o != nil {
			out.Other = &otherModel{Model: string(o.Model), Seconds: o.Breakdown.Seconds, Note: o.Note}
		}
		if err := writeJSON(stdout, out); err != nil {
			return fail(stderr, "predict", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "%s on %s (%s)\n", k.Name, m.Name, m.ID)
	if k.NIsDimension() {
		fmt.Fprintf(stdout, "n = %d, w = %d B\n", p.N, p.W)
	} else {
		fmt.Fprintf(stdout, "N = %s, w = %d B", units.FormatCount(p.N), p.W)
		if len(k.Params) > 2 {
			fmt.Fprintf(stdout, ", b = %d", p.Buckets)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "\nmodel:     %s\npredicted: %s (%s)\n", r.Model.Name(), units.FormatSeconds(b.Seconds), r.Note)
	if r.Uncertainty > 0 {
		fmt.Fprintf(stdout, "           ± %.1f%%: how far the calibration's spreads move it, each parameter by its own, added in quadrature\n", 100*r.Uncertainty)
	}
	fmt.Fprintf(stdout, "regime:    %s\n", b.Regime)
	if o := r.Other; o != nil {
		fmt.Fprintf(stdout, "beside it: %s %s (%s)\n", o.Model.Name(), units.FormatSeconds(o.Breakdown.Seconds), o.Note)
	}
	fmt.Fprintln(stdout)
	for _, t := range b.Terms {
		fmt.Fprintf(stdout, "  %12s  %s\n  %12s  %s\n", units.FormatSeconds(t.Seconds), t.Name, "", t.Formula)
	}
	if len(b.Warnings) > 0 {
		fmt.Fprintln(stdout, "\nwarnings:")
		for _, w := range b.Warnings {
			fmt.Fprintf(stdout, "  - %s\n", w)
		}
	}
	return 0
}

type otherModel struct {
	Model   string  `json:"model"`
	Seconds float64 `json:"seconds"`
	Note    string  `json:"note"`
}

// modelFlagError words a bad model choice as the flag that gave it.
func modelFlagError(err error) error {
	var fe *field.Error
	if errors.As(err, &fe) {
		return fmt.Errorf("--model %s", fe.Msg)
	}
	return err
}

// defaultParams are a kernel's workload when no --set is given: its default
// n, four-byte words and 64 buckets.
func defaultParams(k mbram.Kernel) mbram.Params {
	p := mbram.Params{W: 4, Buckets: 64}
	if n, ok := k.Param("n"); ok {
		p.N = n.Default
	}
	return p
}

// mustKernel looks up a kernel a validated scenario names.
func mustKernel(id string) mbram.Kernel {
	k, _ := mbram.Lookup(id)
	return k
}
