package main

import (
	"errors"
	"flag"
	"fmt"

	"memwall/engine/link"
	"memwall/engine/scenario"
	"memwall/presets"
)

// inputFlags are --link and --scenario, which every command with a page
// takes: the page's share link or the scenario file it exports.
type inputFlags struct {
	link, file *string
}

func addInputFlags(fs *flag.FlagSet, page string) inputFlags {
	return inputFlags{
		link: fs.String("link", "", "a share link (or its #fragment) from the "+page+" page; the other flags are then not read"),
		file: fs.String("scenario", "", "a scenario `file` downloaded from the "+page+" page; the other flags are then not read"),
	}
}

// given reports whether the inputs come from a link or a file.
func (f inputFlags) given() bool { return *f.link != "" || *f.file != "" }

// read reads the inputs of form from the link or the file. Problems of a
// link are errors: a command does not guess around a typo as a page does.
func (f inputFlags) read(form link.Form) (link.Inputs, error) {
	switch {
	case *f.link != "" && *f.file != "":
		return nil, errors.New("--link and --scenario: give one of them")
	case *f.link != "":
		in, es := form.Read(*f.link)
		if len(es) > 0 {
			return nil, fmt.Errorf("--link: %v", es)
		}
		return in, nil
	default:
		data, err := readLimited(*f.file, link.MaxFile)
		if err != nil {
			return nil, fmt.Errorf("--scenario: %v", err)
		}
		in, err := form.ParseJSON(data)
		if err != nil {
			return nil, fmt.Errorf("--scenario %s: %v", *f.file, err)
		}
		return in, nil
	}
}

// kernels reads a Kernels page's link or scenario file.
func (f inputFlags) kernels() (scenario.Scenario, error) {
	r, err := f.readRun(false)
	return r.Scenario, err
}

// run reads a Simulate page's link or scenario file; a Kernels page's
// reads as a run with random seed 1 and the majority predictor.
func (f inputFlags) run() (scenario.Run, error) { return f.readRun(true) }

func (f inputFlags) readRun(isRun bool) (scenario.Run, error) {
	base := scenario.DefaultRun(presets.Machine)
	switch {
	case *f.link != "" && *f.file != "":
		return base, errors.New("--link and --scenario: give one of them")
	case *f.link != "":
		var ps scenario.Problems
		var r scenario.Run
		if isRun {
			r, ps = scenario.ParseRunFragment(*f.link, base, presets.Machine)
		} else {
			r.Scenario, ps = scenario.ParseFragment(link.FromArg(*f.link), base.Scenario, presets.Machine)
		}
		if len(ps) > 0 {
			return r, fmt.Errorf("--link: %v", ps)
		}
		return r, nil
	default:
		data, err := readLimited(*f.file, scenario.MaxJSONSize)
		if err != nil {
			return base, fmt.Errorf("--scenario: %v", err)
		}
		r, err := scenario.ParseRunJSON(data)
		if err != nil {
			return r, fmt.Errorf("--scenario %s: %v", *f.file, err)
		}
		return r, nil
	}
}
