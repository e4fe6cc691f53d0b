package main

import (
	"fmt"
	"io"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
)

func init() {
	register(command{name: "predict", summary: "predict a kernel's running time from the MBRAM closed forms", run: runPredict})
}

// lowerBoundNote is said wherever a prediction is shown (docs/readings.md).
const lowerBoundNote = "a lower bound: the model charges nothing for cache hits above the last level, TLB misses or instructions"

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
	model, err := chooseModel(*modelArg, m)
	if err != nil {
		return fail(stderr, "predict", err)
	}
	b, note, err := predictWith(model, m, k.ID, p)
	if err != nil {
		return fail(stderr, "predict", err)
	}
	// The other model's total, side by side.
	other := modelMBRAM
	if model == modelMBRAM {
		other = modelHier
	}
	ob, onote, oerr := predictWith(other, m, k.ID, p)
	if *asJSON {
		out := struct {
			mbram.Breakdown
			Model   string       `json:"model"`
			Machine string       `json:"machine"`
			Params  mbram.Params `json:"params"`
			Note    string       `json:"note"`
			Other   *otherModel  `json:"other_model,omitempty"`
		}{b, model, m.ID, p, note, nil}
		if oerr == nil {
			out.Other = &otherModel{Model: other, Seconds: ob.Seconds, Note: onote}
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
	fmt.Fprintf(stdout, "\nmodel:     %s\npredicted: %s (%s)\nregime:    %s\n", modelName[model], units.FormatSeconds(b.Seconds), note, b.Regime)
	if oerr == nil {
		fmt.Fprintf(stdout, "beside it: %s %s (%s)\n", modelName[other], units.FormatSeconds(ob.Seconds), onote)
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

// The two models a prediction can use.
const (
	modelMBRAM = "mbram"
	modelHier  = "hier"
)

var modelName = map[string]string{
	modelMBRAM: "the MBRAM paper's closed forms",
	modelHier:  "the hierarchy model",
}

// hierNote is said wherever a hierarchy prediction is shown.
const hierNote = "an estimate: per cache level, with the core's own rate and the branch mispredictions"

type otherModel struct {
	Model   string  `json:"model"`
	Seconds float64 `json:"seconds"`
	Note    string  `json:"note"`
}

// chooseModel reads --model: auto is the hierarchy model for a machine
// with cache levels and the paper's for one of six numbers.
func chooseModel(arg string, m machine.Machine) (string, error) {
	switch arg {
	case "auto", "":
		if len(m.Levels) > 0 {
			return modelHier, nil
		}
		return modelMBRAM, nil
	case modelMBRAM, modelHier:
		return arg, nil
	}
	return "", fmt.Errorf("--model %q: want auto, mbram or hier", arg)
}

// predictWith predicts by one model and says what kind of number it is.
func predictWith(model string, m machine.Machine, kernel string, p mbram.Params) (mbram.Breakdown, string, error) {
	if model == modelHier {
		b, err := hier.Predict(m, kernel, p)
		return b, hierNote, err
	}
	b, err := mbram.Predict(m, kernel, p)
	note := lowerBoundNote
	switch {
	case b.NotBound != "":
		note = "not a bound here: " + b.NotBound
	case len(m.Levels) > 1:
		// The paper's bound rests on its machines: one cache, no
		// prefetching of independent misses. On a machine with several
		// levels it is neither a bound nor a close estimate.
		note = "the paper's one-cache model; a lower bound on the paper's machines, not on one with several cache levels"
	}
	return b, note, err
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
