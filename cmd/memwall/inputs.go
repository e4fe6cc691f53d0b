package main

import (
	"errors"
	"flag"
	"fmt"

	"memwall/engine/link"
)

// inputFlags are --link and --scenario, which every command with a page
// takes: the page's share link or the scenario file it exports.
type inputFlags struct {
	link, scenario *string
}

func addInputFlags(fs *flag.FlagSet, page string) inputFlags {
	return inputFlags{
		link:     fs.String("link", "", "a share link (or its #fragment) from the "+page+" page; the other flags are then not read"),
		scenario: fs.String("scenario", "", "a scenario `file` downloaded from the "+page+" page; the other flags are then not read"),
	}
}

// given reports whether the inputs come from a link or a file.
func (f inputFlags) given() bool { return *f.link != "" || *f.scenario != "" }

// read reads the inputs of form from the link or the file. Problems of a
// link are errors: a command does not guess around a typo as a page does.
func (f inputFlags) read(form link.Form) (link.Inputs, error) {
	switch {
	case *f.link != "" && *f.scenario != "":
		return nil, errors.New("--link and --scenario: give one of them")
	case *f.link != "":
		in, es := form.Read(*f.link)
		if len(es) > 0 {
			return nil, fmt.Errorf("--link: %v", es)
		}
		return in, nil
	default:
		data, err := readLimited(*f.scenario, link.MaxFile)
		if err != nil {
			return nil, fmt.Errorf("--scenario: %v", err)
		}
		in, err := form.ParseJSON(data)
		if err != nil {
			return nil, fmt.Errorf("--scenario %s: %v", *f.scenario, err)
		}
		return in, nil
	}
}
